import Foundation

/// Rewrites `.package(path: "../x")` in a manifest copied to the scratch
/// folder, so a relative path dependency resolves to the same folder it
/// does from the package. Paths inside the package (copied along) and
/// absolute paths are left alone.
enum ManifestPaths {
    static func isManifest(_ relative: String) -> Bool {
        !relative.contains("/") && relative.hasPrefix("Package") && relative.hasSuffix(".swift")
    }

    static func rewrite(_ manifest: String, package: URL) -> String {
        let pattern = #"\.package\s*\(\s*(name:\s*"[^"]*"\s*,\s*)?path:\s*"([^"]*)""#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return manifest }
        var result = manifest
        let text = manifest as NSString
        for match in regex.matches(in: manifest, range: NSRange(location: 0, length: text.length)).reversed() {
            let range = match.range(at: 2)
            let path = text.substring(with: range)
            guard !path.hasPrefix("/") else { continue }
            let resolved = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: package.path, isDirectory: true)).standardizedFileURL.path
            guard !ScratchRules.isInside(resolved, package.standardizedFileURL.path) else { continue }
            let escaped = resolved.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            result = (result as NSString).replacingCharacters(in: range, with: escaped)
        }
        return result
    }
}
