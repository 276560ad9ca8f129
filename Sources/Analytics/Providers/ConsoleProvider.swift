import Foundation

/// A provider that writes each event as one line: handy in debug builds to
/// see what the app tracks.
///
/// ```swift
/// var configuration = Configuration(appID: "com.example.app", endpoint: collectorURL)
/// configuration.providers = [ConsoleProvider()]
/// ```
public final class ConsoleProvider: AnalyticsProvider {
    private let write: @Sendable (String) -> Void

    /// - Parameter write: where lines go; standard output by default.
    public init(write: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }) {
        self.write = write
    }

    public func receive(_ event: TrackedEvent) {
        let properties = event.properties.sorted { $0.key < $1.key }
            .map { "\($0.key)=\(ConsoleProvider.text(of: $0.value))" }
            .joined(separator: " ")
        write("[analytics] \(event.name)" + (properties.isEmpty ? "" : " \(properties)"))
    }

    static func text(of value: PropertyValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .null: "null"
        }
    }
}
