/// Small functions for the harness's end-to-end test.
public enum Arithmetic {
    public static func add(_ a: Int, _ b: Int) -> Int {
        a + b
    }

    public static func sumDown(from start: Int) -> Int {
        var total = 0
        var current = start
        while current > 0 {
            total &+= current
            current -= 1
        }
        return total
    }

    /// Not covered by any test: a change here survives.
    public static func describe(_ value: Int) -> String {
        "value \(value)"
    }

    /// Marked: `mutate explore` never mutates it.
    // mutate: skip
    public static func isPositive(_ value: Int) -> Bool { value > 0 }
}
