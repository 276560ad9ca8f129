import Foundation
import Testing

/// docs/api-evolution.md: every public enum of the SDK with cases is either
/// non-exhaustive (it will grow; apps need `@unknown default:`) or a value
/// of a contract (it changes only with the contract). A new one fails here
/// until someone decides which.
struct APIEvolutionTests {
    static let nonexhaustive: Set<String> = ["AnalyticsError", "AnalyticsDiagnostic", "ValidationFailure"]
    static let contractValues: Set<String> = [
        "PropertyValue", "NetworkType", "AppEnvironment", "ExitReason", "LifecycleTransition", "BuildConfiguration", "FinancialEvent",
    ]
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Analytics")

    /// Each `public enum NAME` that declares a case, with whether the
    /// `@nonexhaustive` attribute stands right above it.
    static func publicEnums() throws -> [String: Bool] {
        var found: [String: Bool] = [:]
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("public enum ") {
                let name = String(line.dropFirst("public enum ".count).prefix { $0.isLetter || $0.isNumber })
                let body = lines[(index + 1)...].prefix { !$0.hasPrefix("}") }
                guard body.contains(where: { $0.hasPrefix("    case ") }) else { continue }
                let above = lines[..<index].suffix(3)
                found[name] = above.contains("@nonexhaustive // SE-0487: clients outside this package need `@unknown default:`")
                    && above.contains("#if hasAttribute(nonexhaustive)")
            }
        }
        return found
    }

    @Test func everyPublicEnumWithCasesHasDecidedHowItGrows() throws {
        let enums = try Self.publicEnums()
        #expect(enums.count >= 10, "the scan found the SDK's enums: \(enums.keys.sorted())")
        for (name, marked) in enums {
            if Self.nonexhaustive.contains(name) {
                #expect(marked, "\(name) will gain cases: declare it @nonexhaustive")
            } else {
                #expect(Self.contractValues.contains(name), "\(name) is new: list it in docs/api-evolution.md and here as one or the other")
                #expect(!marked, "\(name) is a contract value: @nonexhaustive would make apps write @unknown default for nothing")
            }
        }
        #expect(Set(enums.keys).isSuperset(of: Self.nonexhaustive.union(Self.contractValues)), "a listed enum is gone: update both lists")
    }
}
