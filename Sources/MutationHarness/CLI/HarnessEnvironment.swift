/// The environment variables the harness reads, read once when the command
/// starts and handed on from there.
struct HarnessEnvironment: Equatable {
    /// `CI`: set by CI systems; recorded in `report.json`.
    var isCI: Bool
    /// `MUTATE_SWIFT`: the `swift` executable to run (tests point it at a wrapper).
    var swift: String
    /// `MUTATE_TEST_PAUSE`: a phase (`sync`, `reports`) at which a run waits,
    /// so a test can interrupt it exactly there.
    var pausePhase: String?

    init(_ variables: [String: String]) {
        isCI = variables["CI"] != nil
        swift = variables["MUTATE_SWIFT"] ?? "swift"
        pausePhase = variables["MUTATE_TEST_PAUSE"]
    }
}
