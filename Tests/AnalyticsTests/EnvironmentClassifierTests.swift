import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct EnvironmentClassifierTests {
    @Test func freshStoreInstallWithoutAReceiptFileIsProduction() {
        // The receipt URL exists even before StoreKit writes the file.
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "receipt", buildConfiguration: .release)) == .production)
    }

    @Test func sandboxReceiptIsSandbox() {
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "sandboxReceipt", buildConfiguration: .release)) == .sandbox)
    }

    @Test func simulatorAndDebugBuildsAreDebug() {
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "receipt", isSimulator: true, buildConfiguration: .release)) == .debug)
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "sandboxReceipt", buildConfiguration: .debug)) == .debug)
    }

    /// The facts read from the process the tests run in: this build's own
    /// configuration, and no simulator outside one (a device or a Mac is
    /// never reported as a simulator, which would mark its events debug).
    @Test func theRunningProcessIsDescribedAsItIs() {
        let facts = EnvironmentFacts.current()
        #if targetEnvironment(simulator)
        #expect(facts.isSimulator)
        #else
        #expect(!facts.isSimulator)
        #endif
        #if DEBUG
        #expect(facts.buildConfiguration == .debug)
        #else
        #expect(facts.buildConfiguration == .release)
        #endif
    }

    @Test func ambiguousFactsAreProduction() {
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: nil)) == .production)
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "weird", buildConfiguration: .unknown)) == .production)
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: nil, buildConfiguration: .release)) == .production)
    }
}
