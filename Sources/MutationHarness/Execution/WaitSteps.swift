/// How long a loop that watches a child process sleeps between looks: 1 ms
/// at first, doubling up to `longest`. Most commands the harness runs (a
/// test alone, `llvm-profdata`, `git`) end within milliseconds, and a fixed
/// 20-50 ms step cost each of them that much again; a long command still
/// costs one wake-up per `longest`.
struct WaitSteps {
    /// The longest step, in milliseconds.
    let longest: Int32
    private var current: Int32 = 1

    init(longest: Int32) {
        self.longest = max(1, longest)
    }

    /// The next step, in milliseconds.
    mutating func next() -> Int32 {
        defer { current = min(longest, current * 2) }
        return min(current, longest)
    }
}
