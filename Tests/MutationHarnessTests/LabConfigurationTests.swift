import Foundation
import Testing
@testable import MutationHarness

/// What a library user of `Lab` gets without setting anything, and the
/// figures the command line documents: the same verdict rules as `mutate`.
struct LabConfigurationTests {
    private let package = URL(fileURLWithPath: "/nowhere/pkg")

    @Test func theDefaultsAreTheCommandsAndAFixedTimeoutIsTheOnlyLimit() {
        let configuration = LabConfiguration(packagePath: package)
        #expect(configuration.stopAtFirstFailure, "a mutant's run stops at its first failing test unless --all-tests")
        #expect(configuration.schema, "mutants that change only function bodies are built together unless --no-schema")
        #expect(configuration.coverage, "a coverage pass chooses each mutant's tests unless --no-coverage")
        var fixed = configuration
        fixed.fixedTimeout = 5
        #expect(fixed.testTimeout(baselineSeconds: 10) == 5, "--timeout replaces the baseline's time x the multiplier + 30 s")
        #expect(configuration.testTimeout(baselineSeconds: 10) == 10 * configuration.timeoutMultiplier + configuration.timeoutConstant)
    }

    /// `--jobs N`: N mutants at once, and twice as many tests in the coverage pass (README, `mutate --help`).
    @Test(arguments: [(1, 2), (2, 4), (3, 6)])
    func theCoveragePassRunsTwiceAsManyTestsAsThereAreJobs(jobs: Int, workers: Int) {
        var configuration = LabConfiguration(packagePath: package)
        configuration.jobs = jobs
        #expect(Lab(configuration: configuration, mutants: [], print: { _ in }).coverageWorkers == workers)
    }

    @Test func aRedBaselineNamesItsTestsItsFirstFailureAndItsLog() {
        #expect(LabError.baselineTestsFailed(tests: ["T.S/t()", "T.S/u()"], message: "boom", log: "/l").description
            == "the unmutated suite is red; fix these tests first: T.S/t(), T.S/u()\n  first failure: boom\n  log: /l")
        #expect(LabError.baselineTestsFailed(tests: [], message: nil, log: "/l").description
            == "the unmutated suite is red; fix these tests first: (the test process crashed)\n  log: /l")
    }
}

extension LabConfigurationTests {
    /// A library user's lab looks for the patches in the package's `mutants`
    /// folder, as the command does; a folder given is kept.
    @Test func theMutantsFolderIsThePackagesOwnUnlessGiven() {
        #expect(LabConfiguration(packagePath: package).mutantsPath.path == "/nowhere/pkg/mutants")
        #expect(LabConfiguration(packagePath: package, mutantsPath: URL(fileURLWithPath: "/elsewhere/m")).mutantsPath.path == "/elsewhere/m")
    }
}
