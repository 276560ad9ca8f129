import Foundation

/// `report.html`: one self-contained page (no network, no external script or
/// font) that opens offline in any browser: the verdict, mutants grouped by
/// file with the source and the mutated lines marked, filters by status,
/// each mutant's description, diff, killing tests and first failure, and a
/// mutant x test matrix.
enum HTMLReport {
    static func render(_ report: LabReport, readSource: (String) -> String?) -> String {
        let score = report.score.map { String(format: "%.1f%%", $0) } ?? "n/a"
        let verdict = ConsoleFormat.verdict(report)
        let passed = HarnessExitCode.gate(report) == .passed
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Mutation report: \(escape(score))</title>
            <style>
            body{font:14px/1.45 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#222}
            h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:24px 0 8px;border-bottom:1px solid #ddd}
            .verdict{padding:8px 12px;border-radius:6px;margin:8px 0} .pass{background:#e6f4ea} .fail{background:#fce8e6}
            .counts span{display:inline-block;margin-right:12px}
            .filters label{margin-right:12px;cursor:pointer}
            pre{background:#f6f8fa;padding:8px;overflow:auto;font:12px/1.4 ui-monospace,Menlo,monospace;margin:4px 0}
            .src .hit{background:#fff3bf} .src .num{color:#999;display:inline-block;width:4em;text-align:right;margin-right:8px}
            .mutant{border:1px solid #ddd;border-radius:6px;padding:8px;margin:8px 0}
            .status{font-weight:600;text-transform:uppercase;font-size:12px;padding:1px 6px;border-radius:4px}
            .s-killed,.s-timeout{background:#e6f4ea} .s-survived,.s-noCoverage{background:#fce8e6} .s-stale,.s-unviable,.s-error{background:#fff3bf}
            .s-ignored,.s-pending{background:#eee}
            table{border-collapse:collapse;font-size:12px} td,th{border:1px solid #ddd;padding:2px 6px} th{background:#f6f8fa}
            td.k{background:#cfe8d5;text-align:center}
            </style></head><body>
            <h1>Mutation report</h1>
            <div>Package <code>\(escape(report.packagePath))</code>\(report.shard.map { " (shard \(escape($0)))" } ?? "")</div>
            <div class="verdict \(passed ? "pass" : "fail")" id="verdict">\(escape(verdict))</div>
            <div class="counts">\(MutantStatus.allCases.compactMap { status in
                report.count[status].map { "<span>\($0) \(status.rawValue)</span>" }
            }.joined())<span>score \(escape(score)), threshold \(report.threshold)%</span></div>
            <div class="filters" id="filters">Show:
            """
        let present = MutantStatus.allCases.filter { report.count[$0] != nil }
        for status in present {
            out += "<label><input type=\"checkbox\" data-status=\"\(status.rawValue)\" checked> \(status.rawValue)</label>"
        }
        out += "</div>\n"
        // The untested code at a glance: the files and lines no test reaches.
        let uncovered = Dictionary(grouping: report.mutants.filter { $0.status == .noCoverage }) { $0.files.first ?? "(no file)" }
        if !uncovered.isEmpty {
            out += "<h2>Code no test reaches</h2>\n<ul id=\"uncovered\">"
                + uncovered.keys.sorted().map { file in
                    let lines = (uncovered[file] ?? []).map(\.firstLine).sorted().map(String.init).joined(separator: ", ")
                    return "<li><code>\(escape(file))</code> line(s) \(lines)</li>"
                }.joined() + "</ul>\n"
        }

        let byFile = Dictionary(grouping: report.mutants, by: { $0.files.first ?? "(no file)" })
        for file in byFile.keys.sorted() {
            let mutants = byFile[file] ?? []
            out += "<h2 class=\"file\">\(escape(file))</h2>\n"
            if let source = readSource(file) {
                let marked = Set(mutants.flatMap { Array($0.firstLine...max($0.firstLine, $0.lastLine)) })
                let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
                // Two lines around each mutated line; a gap between excerpts is marked.
                // The package may have changed since the run (a user editing
                // while it ran): lines past the file's end are not shown.
                let shown = Set(marked.flatMap { line -> [Int] in
                    let (first, last) = (max(1, line - 2), min(lines.count, line + 2))
                    return first <= last ? Array(first...last) : []
                }).sorted()
                if marked.contains(where: { $0 > lines.count }) {
                    out += "<p class=\"gap\">This file is shorter now than when the mutants were made: it changed since, and the lines shown may not be theirs.</p>\n"
                }
                out += "<pre class=\"src\">"
                var previous: Int?
                for number in shown where lines.indices.contains(number - 1) {
                    if let previous, number > previous + 1 { out += "<span class=\"gap\"><span class=\"num\">…</span></span>\n" }
                    let text = escape(String(lines[number - 1]))
                    out += "<span class=\"\(marked.contains(number) ? "hit" : "")\"><span class=\"num\">\(number)</span>\(text)</span>\n"
                    previous = number
                }
                out += "</pre>\n"
            }
            for mutant in mutants {
                out += """
                    <div class="mutant" data-status="\(mutant.status.rawValue)">
                    <span class="status s-\(mutant.status.rawValue)">\(mutant.status.rawValue)</span> <b>\(escape(mutant.name))</b>
                    line \(mutant.firstLine) &middot; \(escape(mutant.description))
                    """
                if !mutant.killedBy.isEmpty {
                    out += "<div>Killed by: " + mutant.killedBy.map { "<code>\(escape($0))</code>" }.joined(separator: ", ") + "</div>"
                }
                if let reason = mutant.reason { out += "<div>\(mutant.status == .killed ? "First failure" : "Why"): \(escape(reason))</div>" }
                if let covering = mutant.coveredBy {
                    out += "<details><summary>Covered by \(covering.count) test(s), the only ones run</summary><ul>"
                        + covering.map { "<li><code>\(escape($0))</code></li>" }.joined() + "</ul></details>"
                }
                if let notRun = mutant.notRun, !notRun.isEmpty { out += "<div>Did not run after the crash: \(notRun.count) test(s)</div>" }
                out += "<details><summary>diff</summary><pre>\(escape(mutant.diff))</pre></details></div>\n"
            }
        }

        // Which tests kill which mutants, and the tests that kill nothing.
        let killers = Array(Set(report.mutants.flatMap(\.killedBy))).sorted()
        out += "<h2>Mutants x tests</h2>\n"
        if killers.isEmpty {
            out += "<p>No test killed a mutant by name.</p>\n"
        } else {
            out += "<table id=\"matrix\"><tr><th>mutant</th>" + killers.enumerated().map { "<th title=\"\(escape($1))\">T\($0 + 1)</th>" }.joined() + "</tr>\n"
            for mutant in report.mutants where !mutant.killedBy.isEmpty {
                out += "<tr data-status=\"\(mutant.status.rawValue)\"><td>\(escape(mutant.name))</td>"
                    + killers.map { mutant.killedBy.contains($0) ? "<td class=\"k\">&#10003;</td>" : "<td></td>" }.joined() + "</tr>\n"
            }
            out += "</table>\n<ol class=\"tests\">" + killers.map { "<li><code>\(escape($0))</code></li>" }.joined() + "</ol>\n"
        }
        let idle = report.tests.filter { !killers.contains($0) }
        out += "<details><summary>\(idle.count) test(s) that killed no mutant</summary><ul>"
            + idle.map { "<li><code>\(escape($0))</code></li>" }.joined() + "</ul></details>\n"
        out += """
            <script>
            document.querySelectorAll('#filters input').forEach(function (box) {
              box.addEventListener('change', function () {
                var hidden = {};
                document.querySelectorAll('#filters input').forEach(function (b) { if (!b.checked) hidden[b.dataset.status] = true; });
                document.querySelectorAll('[data-status]').forEach(function (el) {
                  if (el.tagName !== 'INPUT') el.style.display = hidden[el.dataset.status] ? 'none' : '';
                });
              });
            });
            </script>
            </body></html>

            """
        return out
    }

    /// Markup escaping, shared with `junit.xml` (every attribute here is double-quoted).
    static func escape(_ text: String) -> String { JUnitReport.escape(text) }
}
