import Foundation

/// Where the app runs, as reported in `context.environment`.
public enum AppEnvironment: String, Sendable, Equatable, CaseIterable {
    case production
    /// TestFlight and other sandbox-receipt builds.
    case sandbox
    case debug
}

/// How the app was built.
public enum BuildConfiguration: Sendable, Equatable {
    case debug
    case release
    case unknown
}

/// The observable facts the classifier reads. None of them is whether a file
/// exists: a fresh App Store install has no receipt file until StoreKit
/// writes one.
public struct EnvironmentFacts: Sendable, Equatable {
    /// The last path component of the app's receipt URL (`receipt`,
    /// `sandboxReceipt`), or nil where the platform has none.
    public var receiptName: String?
    public var isSimulator: Bool
    public var buildConfiguration: BuildConfiguration

    public init(receiptName: String?, isSimulator: Bool = false, buildConfiguration: BuildConfiguration = .unknown) {
        self.receiptName = receiptName
        self.isSimulator = isSimulator
        self.buildConfiguration = buildConfiguration
    }

    /// The running process's facts.
    public static func current(bundle: Bundle = .main) -> EnvironmentFacts {
        #if targetEnvironment(simulator)
        let simulator = true
        #else
        let simulator = false
        #endif
        #if DEBUG
        let configuration = BuildConfiguration.debug
        #else
        let configuration = BuildConfiguration.release
        #endif
        return EnvironmentFacts(
            receiptName: bundle.appStoreReceiptURL?.lastPathComponent,
            isSimulator: simulator,
            buildConfiguration: configuration
        )
    }
}

/// Classifies the environment from facts (docs/environment.md).
///
/// Rules, in order: a simulator or a debug build is `debug`; a receipt named
/// `sandboxReceipt` is `sandbox`; everything else, including a missing
/// receipt, is `production`.
/// When in doubt the answer is `production`: losing every real user is far
/// worse than counting a few development builds.
///
/// ```swift
/// EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "receipt")) // .production
/// ```
public enum EnvironmentClassifier {
    public static func classify(_ facts: EnvironmentFacts) -> AppEnvironment {
        if facts.isSimulator || facts.buildConfiguration == .debug { return .debug }
        if facts.receiptName == "sandboxReceipt" { return .sandbox }
        return .production
    }
}
