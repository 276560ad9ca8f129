/// The environment variables the harness reads, read once when the command
/// starts and handed on from there.
struct HarnessEnvironment: Equatable {
    /// `CI`: set by CI systems; recorded in `report.json`.
    var isCI: Bool
    /// `MUTATE_SWIFT`: the `swift` executable to run (tests point it at a wrapper).
    var swift: String
    /// `MUTATE_TEST_PAUSE`: a phase at which a run waits, so a test can
    /// interrupt it exactly there (the phases and their `-deaf`
    /// variant: `Lab.pause(at:)`).
    var pausePhase: String?
    /// `MUTATE_TEST_GRACE`: seconds a run interrupted but stuck is given to
    /// finish before the interrupt handler ends it (30 unless a test asks).
    var interruptGrace: Double

    /// `MUTATE_REPORT_URL`: where CI publishes report.html, for summary.md's link.
    var reportURL: String?

    init(_ variables: [String: String]) {
        reportURL = variables["MUTATE_REPORT_URL"].flatMap { $0.isEmpty ? nil : $0 }
        isCI = variables["CI"] != nil
        swift = variables["MUTATE_SWIFT"] ?? "swift"
        pausePhase = variables["MUTATE_TEST_PAUSE"]
        interruptGrace = variables["MUTATE_TEST_GRACE"].flatMap(Double.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 30
    }
}
