/// Small functions for the harness's end-to-end test.
public enum Arithmetic {
    public static func add(_ a: Int, _ b: Int) -> Int {
        a + b
    }

    public static func countdown(from start: Int) -> [Int] {
        var values: [Int] = []
        var current = start
        while current > 0 {
            values.append(current)
            current -= 1
        }
        return values
    }

    /// Not covered by any test: a change here survives.
    public static func describe(_ value: Int) -> String {
        "value \(value)"
    }
}
