/// Checks that the reports handed to `mutate merge` are every shard of one
/// split, each once: a merge that lacks a shard would gate on part of the
/// mutants and pass.
enum ShardSet {
    /// What is wrong with the set of (folder, shard label) pairs, or nil.
    static func problem(with inputs: [(folder: String, shard: String?)]) -> String? {
        var seen: [Int: String] = [:]
        var total: Int?
        for (folder, label) in inputs {
            guard let label else {
                return "\(folder) is not a shard report (it ran without --shard): merge combines the reports of `mutate --shard K/N` runs"
            }
            let parts = label.split(separator: "/")
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
                return "\(folder) has an unreadable shard label '\(label)'"
            }
            if let total, total != count {
                return "the reports come from different splits (\(total) and \(count) shards): merge the shards of one split"
            }
            total = count
            if let other = seen[index] {
                return "shard \(index)/\(count) is given twice (\(other) and \(folder))"
            }
            seen[index] = folder
        }
        guard let total else { return "no report to merge" }
        let missing = (1...total).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.map { "\($0)/\(total)" }.joined(separator: ", ")
            return "shard(s) \(list) missing: a merge must hold every shard, or the gate would pass on part of the mutants; run `mutate --shard K/\(total)` for each and pass every report folder"
        }
        return nil
    }
}
