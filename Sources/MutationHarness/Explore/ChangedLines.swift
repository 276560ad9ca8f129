import Foundation

/// The lines changed since a git ref (`--in-diff REF`), per file, from
/// `git diff -U0 REF`: the pull-request mode.
struct ChangedLines {
    var lines: [String: [ClosedRange<Int>]] = [:]

    func contains(_ file: String, line: Int) -> Bool {
        lines[file]?.contains { $0.contains(line) } ?? false
    }

    /// Reads `git diff -U0` output: `+++ b/FILE` then `@@ -a,b +c,d @@` hunks.
    static func parse(_ diff: String) -> ChangedLines {
        var result = ChangedLines()
        var file: String?
        for line in diff.split(separator: "\n") {
            if line.hasPrefix("+++ ") {
                let path = line.dropFirst(4)
                file = path.hasPrefix("b/") ? String(path.dropFirst(2)) : nil
            } else if line.hasPrefix("@@"), let file {
                // `@@ -a,b +c,d @@`, or `@@@ -a,b -c,d +e,f @@@` (the combined
                // form git writes for a file with a merge conflict): the new
                // side is the field with "+".
                guard let added = line.split(separator: " ").dropFirst().first(where: { $0.hasPrefix("+") }) else { continue }
                let numbers = added.dropFirst().split(separator: ",").compactMap { Int($0) }
                guard let start = numbers.first else { continue }
                let count = numbers.count > 1 ? numbers[1] : 1
                if count > 0 { result.lines[file, default: []].append(start...(start + count - 1)) }
            }
        }
        return result
    }

    /// Runs git in `package` (paths relative to it).
    static func since(_ ref: String, in package: URL) throws -> ChangedLines {
        let result = try CapturedCommand.run(["git", "-C", package.path, "diff", "-U0", "--no-color", "--no-ext-diff", "--relative", ref, "--"])
        guard result.status == 0 else {
            throw ASTDumpError(reason: "git diff \(ref) failed in \(package.path): \(result.errorText)")
        }
        return parse(String(decoding: result.output, as: UTF8.self))
    }
}
