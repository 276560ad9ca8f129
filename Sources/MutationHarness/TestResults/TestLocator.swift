import Foundation

/// Where a test is declared: a path relative to the package and a line.
public struct TestLocation: Codable, Equatable, Sendable {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
}

/// Finds the file each test of a run is declared in, so reports can group
/// tests by file as the mutation-testing-elements schema asks.
///
/// Swift Testing names the file itself: its event stream carries a
/// `sourceLocation` for every test function. XCTest's output does not, so
/// an XCTest case `Module.Class/testName` is looked up in the sources under
/// `Tests/Module`: the file that declares `class Class`, and the line of
/// `func testName`.
enum TestLocator {
    static func locations(ids: [String], eventStream: URL, packageRoot: URL) -> [String: TestLocation] {
        var found = swiftTestingLocations(eventStream: eventStream, packageRoot: packageRoot)
        let missing = ids.filter { found[$0] == nil }
        found.merge(xctestLocations(ids: missing, packageRoot: packageRoot)) { current, _ in current }
        return found
    }

    static func swiftTestingLocations(eventStream: URL, packageRoot: URL) -> [String: TestLocation] {
        guard let data = FileManager.default.contents(atPath: eventStream.path) else { return [:] }
        var locations: [String: TestLocation] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  object["kind"] as? String == "test",
                  let payload = object["payload"] as? [String: Any],
                  payload["kind"] as? String == "function",
                  let id = payload["id"] as? String,
                  let source = payload["sourceLocation"] as? [String: Any],
                  let path = source["filePath"] as? String,
                  let lineNumber = source["line"] as? Int
            else { continue }
            locations[EventStreamReader.testID(id)] = TestLocation(file: relative(path, to: packageRoot), line: lineNumber)
        }
        return locations
    }

    static func xctestLocations(ids: [String], packageRoot: URL) -> [String: TestLocation] {
        var sourcesByModule: [String: [(path: String, lines: [Substring])]] = [:]
        var locations: [String: TestLocation] = [:]
        for id in ids {
            let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
            let qualified = parts[0].split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, qualified.count == 2 else { continue }
            let (module, className, testName) = (qualified[0], qualified[1], parts[1])
            if sourcesByModule[module] == nil { sourcesByModule[module] = sources(in: packageRoot.appendingPathComponent("Tests/\(module)"), packageRoot: packageRoot) }
            guard let file = sourcesByModule[module]?.first(where: { declares("class", className, in: $0.lines) != nil }) else { continue }
            let line = declares("func", testName, in: file.lines) ?? declares("class", className, in: file.lines) ?? 1
            locations[id] = TestLocation(file: file.path, line: line)
        }
        return locations
    }

    /// The 1-based line that declares `keyword name` (followed by a
    /// non-identifier character), if any.
    private static func declares(_ keyword: String, _ name: String, in lines: [Substring]) -> Int? {
        let needle = "\(keyword) \(name)"
        for (index, line) in lines.enumerated() {
            var rest = line[...]
            while let range = rest.range(of: needle) {
                let after = rest[range.upperBound...].first
                let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
                let endsName = after.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
                let startsWord = before.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
                if endsName && startsWord { return index + 1 }
                rest = rest[range.upperBound...]
            }
        }
        return nil
    }

    private static func sources(in folder: URL, packageRoot: URL) -> [(path: String, lines: [Substring])] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return readSources(enumerator.compactMap { $0 as? URL }, packageRoot: packageRoot)
    }

    /// The Swift files among `urls` with their lines, by path: a folder lists
    /// its files in the file system's order, and the file taken for a class
    /// that two files name must be the same on every machine.
    static func readSources(_ urls: [URL], packageRoot: URL) -> [(path: String, lines: [Substring])] {
        var files: [(path: String, lines: [Substring])] = []
        for url in urls where url.pathExtension == "swift" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files.append((relative(url.path, to: packageRoot), text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files.sorted { $0.path < $1.path }
    }

    private static func relative(_ path: String, to root: URL) -> String {
        let prefix = root.standardizedFileURL.path.hasSuffix("/") ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
