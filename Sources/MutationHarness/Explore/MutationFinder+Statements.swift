/// The operators that remove a statement: a call whose result is not used
/// (with its `try` or `await`), an update of state, an `if` or an `else if`
/// branch.
extension MutationFinder {
    static let compoundAssignments: Set<String> = ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*="]

    /// The mutations of one statement of a block.
    func statement(_ element: [String: Any], context: Context, into found: inout [MutationPoint]) {
        guard let range = Self.range(element) else { return }
        let removal: MutationOperator
        switch element["_kind"] as? String {
        case "call_expr", "try_expr", "optional_try_expr", "force_try_expr", "await_expr":
            // Its result is not used: it returns nothing, or its result is discardable. A call that
            // never returns (`fatalError`) stays: without it, the code after it would need a return.
            guard let call = Self.call(under: element), call["implicit"] as? Bool != true, call["type"] as? String != Self.neverType else { return }
            removal = .removeVoidCall
        case "assign_expr":
            guard !context.inInitializer, let target = element["dest"] as? [String: Any], target["_kind"] as? String != "discard_assignment_expr",
                  Self.outlivesTheStatement(target)
            else { return }
            removal = .droppedUpdate
        case "binary_expr":
            guard !context.inInitializer, let function = element["fn"] as? [String: Any], let name = Self.declName(in: function),
                  Self.compoundAssignments.contains(name), let target = Self.operands(element).first, Self.outlivesTheStatement(target)
            else { return }
            removal = .droppedUpdate
        case "if_stmt":
            guard element["else_stmt"] == nil, text(range.start, 2) == "if" else { return }
            removal = .removeBranch
        default:
            return
        }
        // Only a statement that would be removed has its tree read for the closure's arguments.
        guard !leavesAnArgumentUnused(removing: element, context: context) else { return }
        add(removal, range.start, throughSemicolon(tokenEnd(at: range.end)), "", into: &found)
    }

    /// The `else if` branch of `node`'s chain, removed: `if a {} else if b {}
    /// else {}` becomes `if a {} else {}`, and a last `else if b {}` goes
    /// with its `else`. The schema's switch is a first condition that fails,
    /// right after the branch's `if`.
    func elseIfBranch(_ node: [String: Any], context: Context, into found: inout [MutationPoint]) {
        guard let branch = node["else_stmt"] as? [String: Any], branch["_kind"] as? String == "if_stmt", branch["implicit"] as? Bool != true,
              let range = Self.range(branch), text(range.start, 2) == "if",
              let then = node["then_stmt"] as? [String: Any], let thenRange = Self.range(then),
              !leavesAnArgumentUnused(removing: branch, keeping: branch["else_stmt"], context: context)
        else { return }
        let afterIf = MutationPoint.ByteRange(start: range.start + 2, end: range.start + 2)
        if let rest = branch["else_stmt"] as? [String: Any], let restRange = Self.range(rest) {
            add(.removeBranch, range.start, restRange.start, "", switchSite: afterIf, into: &found)
        } else {
            add(.removeBranch, tokenEnd(at: thenRange.end), tokenEnd(at: range.end), "", switchSite: afterIf, into: &found)
        }
    }

    /// A removed statement takes the `;` that ends it on its line with it
    /// (`{ if a { b() }; c() }`: a lone `;` does not compile).
    private func throughSemicolon(_ end: Int) -> Int {
        var next = end
        while next < source.count, source[next] == UInt8(ascii: " ") || source[next] == UInt8(ascii: "\t") { next += 1 }
        return next < source.count && source[next] == UInt8(ascii: ";") ? next + 1 : end
    }

    /// The call a statement makes, through `try`, `try?`, `try!` and `await`.
    static func call(under node: [String: Any]) -> [String: Any]? {
        var current = node
        while true {
            switch current["_kind"] as? String {
            case "call_expr":
                return current
            case "try_expr", "optional_try_expr", "force_try_expr", "await_expr", "inject_into_optional":
                guard let inner = current["sub_expr"] as? [String: Any] else { return nil }
                current = inner
            default:
                return nil
            }
        }
    }

    /// Whether an assignment's target is state the update is for: a
    /// property (of `self`, or a static one), a global, or an element of
    /// any collection (`x[k] = v`). A local variable's own value is left
    /// alone: `x = 1` may be its first value (without it, the code does not
    /// compile), and a loop's counter left alone (`i -= 1`) only hangs.
    static func outlivesTheStatement(_ target: [String: Any]) -> Bool {
        var node = target
        var property = false
        while true {
            switch node["_kind"] as? String {
            case "member_ref_expr":
                property = true
                guard let base = node["base"] as? [String: Any] else { return false }
                node = base
            case "subscript_expr":
                return true
            case "inout_expr", "load_expr", "force_value_expr", "bind_optional_expr", "optional_evaluation_expr", "paren_expr", "metatype_conversion_expr":
                guard let inner = node["sub_expr"] as? [String: Any] else { return false }
                node = inner
            case "type_expr":
                return property
            case "declref_expr":
                let declaration = node["decl"] as? [String: Any]
                if declaration?["base_name"] as? String == "self" { return property }
                return !(declaration?["decl_usr"] as? String ?? "").isEmpty
            default:
                return false
            }
        }
    }
}
