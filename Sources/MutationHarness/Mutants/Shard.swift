/// `--shard K/N`: one slice of a run's mutants for a CI matrix, and the
/// check that `mutate merge` was handed every slice of one split, once.
/// The one home of sharding: the gate, explore and merge all go through it.
struct Shard: Equatable, Sendable, CustomStringConvertible {
    var index: Int
    var count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `K/N` with 1 <= K <= N, as given on the command line and kept in a
    /// report's `shard` label; nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.init(index: index, count: count)
    }

    /// The label: `2/3`.
    var description: String { "\(index)/\(count)" }

    /// Every `count`-th item starting at the `index`-th (1-based): the
    /// shards of one list never overlap and together hold all of it.
    func slice<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// What is wrong with the reports handed to `mutate merge`, as
    /// (folder, shard label) pairs, or nil when they are every shard of one
    /// split, each once: a merge that lacks a shard would gate on part of
    /// the mutants and pass.
    static func problem(merging inputs: [(folder: String, shard: String?)]) -> String? {
        var seen: [Int: String] = [:]
        var total: Int?
        for (folder, label) in inputs {
            guard let label else {
                return "\(folder) is not a shard report (it ran without --shard): merge combines the reports of `mutate --shard K/N` runs"
            }
            guard let shard = Shard(label) else { return "\(folder) has an unreadable shard label '\(label)'" }
            if let total, total != shard.count {
                return "the reports come from different splits (\(total) and \(shard.count) shards): merge the shards of one split"
            }
            total = shard.count
            if let other = seen[shard.index] {
                return "shard \(shard) is given twice (\(other) and \(folder))"
            }
            seen[shard.index] = folder
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
