/// One rule for every operator that removes code: a closure whose `$0` or
/// `$1` loses its last use does not compile (`forEach { }`, `{ $0 }` where
/// two arguments come), though the schema's switch, which keeps the text,
/// would. Such a mutant would be a patch that cannot be built, so none is
/// made.
extension MutationFinder {
    /// How many times each closure argument (`$0`, `$1`) is used in `value`,
    /// closures inside it aside (their `$0` is their own).
    static func argumentUses(in value: Any) -> [String: Int] {
        if let array = value as? [Any] {
            return array.reduce(into: [:]) { uses, element in uses.merge(argumentUses(in: element), uniquingKeysWith: +) }
        }
        guard let node = value as? [String: Any], node["_kind"] as? String != "closure_expr" else { return [:] }
        var uses: [String: Int] = [:]
        // `$0`, `$1` as written: not the compiler's own (a string's `$interpolation`, the `$0` of a key path used as a function).
        if node["implicit"] as? Bool != true, let name = (node["decl"] as? [String: Any])?["base_name"] as? String, name.hasPrefix("$"),
           name.dropFirst().allSatisfy(\.isNumber)
        {
            uses[name] = 1
        }
        for (key, child) in node where key != "_kind" { uses.merge(argumentUses(in: child), uniquingKeysWith: +) }
        return uses
    }

    /// Whether replacing `removed` with nothing, or with a copy of `kept`,
    /// leaves an argument of the nearest closure without a use.
    func leavesAnArgumentUnused(removing removed: Any, keeping kept: Any? = nil, context: Context) -> Bool {
        // Outside a closure that uses `$0` or `$1` (most code), no tree is read.
        guard !context.closureArguments.isEmpty else { return false }
        let keptUses = kept.map(Self.argumentUses(in:)) ?? [:]
        return Self.argumentUses(in: removed).contains { name, count in
            context.closureArguments[name, default: 0] - count + keptUses[name, default: 0] <= 0
        }
    }
}
