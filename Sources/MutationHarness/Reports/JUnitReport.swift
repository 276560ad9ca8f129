import Foundation

/// `junit.xml`: one test case per mutant, so CI shows survivors as failures
/// and stale or unviable mutants as errors.
enum JUnitReport {
    static func render(_ report: LabReport) -> String {
        let failures = report.mutants.filter { $0.status.isUndetected }.count
        let errors = report.mutants.filter { [.stale, .unviable, .error].contains($0.status) }.count
        let skipped = report.mutants.filter { $0.status == .pending || $0.status == .ignored }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
        out += String(format: "  <testsuite name=\"mutants\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
                      report.mutants.count, failures, errors, skipped, report.mutationSeconds)
        for result in report.mutants {
            out += String(format: "    <testcase classname=\"mutants\" name=\"%@\" time=\"%.3f\"", escape(result.name),
                          result.buildSeconds + result.testSeconds)
            if let file = result.files.first { out += " file=\"\(escape(file))\" line=\"\(result.firstLine)\"" }
            let reason = escape(result.reason ?? "")
            switch result.status {
            case .killed, .timeout:
                let by = result.killedBy.isEmpty ? "" : " by \(result.killedBy.joined(separator: ", "))"
                out += ">\n      <system-out>\(escape("\(result.status.rawValue)\(by): \(result.reason ?? "")"))</system-out>\n    </testcase>\n"
            case .survived:
                out += ">\n      <failure message=\"survived: no test failed\">\(escape(result.description + "\n\n" + result.diff))</failure>\n    </testcase>\n"
            case .noCoverage:
                out += ">\n      <failure message=\"no test reaches it\">\(escape(result.description + "\n\n" + result.diff))</failure>\n    </testcase>\n"
            case .stale, .unviable, .error:
                out += ">\n      <error message=\"\(result.status.rawValue): \(reason)\">\(escape(result.description))</error>\n    </testcase>\n"
            case .pending:
                out += ">\n      <skipped message=\"not run yet\"/>\n    </testcase>\n"
            case .ignored:
                out += ">\n      <skipped message=\"ignored: \(reason)\"/>\n    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
