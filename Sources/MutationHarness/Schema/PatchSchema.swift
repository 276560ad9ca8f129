/// Named mutants in one build: each function body a patch changes is kept
/// beside the original, behind the schema's switch (`MUTATE_SCHEMA_ID`), so
/// such a mutant costs one test run and no build of its own.
///
/// A body the patches of mutants 3 and 7 change becomes
///
///     { if !(__mutateActive(3) || __mutateActive(7)) { original } else if __mutateActive(3) { mutant 3's } else { mutant 7's } }
///
/// With every switch off the original runs; a line of the rewritten file
/// maps back to the original's (`Schema.originalLine`). A patch that
/// changes anything outside function bodies (a declaration, a stored
/// property's initial value, a file of another kind), or whose file the
/// compiler cannot parse, runs as a patch, as does one whose code does not
/// type-check in the schema (`Lab.installSchema`).
enum PatchSchema {
    /// One body a mutant replaces.
    struct Swap: Equatable, Sendable {
        var file: String
        /// The original's body.
        var body: FunctionBody
        /// The mutant's body, braces included, and where its lone
        /// expression starts in that text (nil: not one expression).
        var replacement: String
        var replacementExpression: Int?
    }

    /// Why a mutant cannot be in the schema.
    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// The bodies that differ between `original` and `mutated`, when the
    /// two differ in function bodies only: the text around the outermost
    /// bodies is the same byte for byte, and so is their number.
    static func swaps(file: String, original: [UInt8], originalBodies: [FunctionBody],
                      mutated: [UInt8], mutatedBodies: [FunctionBody]) -> Result<[Swap], Refusal>
    {
        guard originalBodies.count == mutatedBodies.count else {
            return .failure(Refusal(reason: "it adds or removes a function in \(file)"))
        }
        var swaps: [Swap] = []
        var originalAt = 0, mutatedAt = 0
        for (old, new) in zip(originalBodies, mutatedBodies) {
            guard original[originalAt..<old.start] == mutated[mutatedAt..<new.start] else {
                return .failure(Refusal(reason: "it changes \(file) outside function bodies"))
            }
            if original[old.start...old.end] != mutated[new.start...new.end] {
                swaps.append(Swap(file: file, body: old, replacement: String(decoding: mutated[new.start...new.end], as: UTF8.self),
                                  replacementExpression: new.expressionStart.map { $0 - new.start }))
            }
            originalAt = old.end + 1
            mutatedAt = new.end + 1
        }
        guard original[originalAt...] == mutated[mutatedAt...] else {
            return .failure(Refusal(reason: "it changes \(file) outside function bodies"))
        }
        return .success(swaps)
    }

    /// The schema of `mutants` (name and swaps, in order: numbers follow it).
    /// `sources` holds each file's bytes; `module` names a file's module
    /// folder, where the switch's support file goes. Each mutant's site is
    /// the lines of every body it shares, so a compiler error there leaves
    /// out each mutant of that body.
    static func build(_ mutants: [(name: String, swaps: [Swap])], sources: [String: [UInt8]], module: (String) -> String) -> Schema {
        var schema = Schema()
        var number = 0
        // (file, body start) -> the mutants' numbers and their replacements, in order.
        var byBody: [String: [Int: (body: FunctionBody, variants: [(number: Int, name: String, swap: Swap)])]] = [:]
        for mutant in mutants where !mutant.swaps.isEmpty {
            number += 1
            schema.numbers[mutant.name] = number
            for swap in mutant.swaps {
                byBody[swap.file, default: [:]][swap.body.start, default: (swap.body, [])].variants.append((number, mutant.name, swap))
            }
        }
        for (file, bodies) in byBody.sorted(by: { $0.key < $1.key }) {
            guard let source = sources[file] else { continue }
            var edits: [Schema.Edit] = []
            var sites: [(start: Int, names: [String], text: String)] = []
            for (start, entry) in bodies.sorted(by: { $0.key < $1.key }) {
                let text = wrapper(original: source, body: entry.body, variants: entry.variants.map { ($0.number, $0.swap) })
                edits.append(Schema.Edit(start: start, end: entry.body.end + 1, text: text, order: 1))
                sites.append((start, entry.variants.map(\.name), text))
            }
            schema.files[file] = Schema.apply(edits, to: source)
            // Lines in the rewritten file: each wrapper shifts the ones after it.
            var shift = 0
            for site in sites {
                let body = bodies[site.start]!.body
                let first = 1 + source[..<site.start].filter { $0 == UInt8(ascii: "\n") }.count + shift
                let lines = site.text.utf8.filter { $0 == UInt8(ascii: "\n") }.count
                for name in site.names { schema.bodySites.append(Schema.Site(id: name, file: file, lines: first...(first + lines))) }
                // The original keeps its lines up to its closing brace; the variants follow.
                let originalLines = source[site.start...body.end].filter { $0 == UInt8(ascii: "\n") }.count
                schema.lineShifts[file, default: []].append(Schema.LineShift(line: first + originalLines, extra: lines - originalLines))
                shift += lines - originalLines
            }
        }
        for module in Set(byBody.keys.map(module)) { schema.support[module] = Schema.supportFile(operators: [], switches: number) }
        return schema
    }

    /// The body that runs the original unless one of `variants` is switched on.
    static func wrapper(original source: [UInt8], body: FunctionBody, variants: [(number: Int, swap: Swap)]) -> String {
        // A body of one expression returns it; behind a switch the return is
        // spelled, in the original and in each variant alike.
        func inner(_ text: String, expression: Int?) -> String {
            var bytes = Array(text.utf8.dropFirst().dropLast())
            if body.returnsValue, let expression { bytes.insert(contentsOf: Array("return ".utf8), at: expression - 1) }
            return String(decoding: bytes, as: UTF8.self)
        }
        let original = inner(String(decoding: source[body.start...body.end], as: UTF8.self), expression: body.expressionStart.map { $0 - body.start })
        let active = variants.map { "__mutateActive(\($0.number))" }
        let none = variants.count == 1 ? "!" + active[0] : "!(" + active.joined(separator: " || ") + ")"
        var text = "{ if \(none) {\(original)}"
        for (index, variant) in variants.enumerated() {
            let code = inner(variant.swap.replacement, expression: variant.swap.replacementExpression)
            text += index == variants.count - 1 ? " else {\(code)}" : " else if \(active[index]) {\(code)}"
        }
        return text + " }"
    }
}
