/// Which generated mutants an explore run takes: all of them, a fixed
/// sample, one shard of them, or a shard of the sample.
struct ExploreSelection: Equatable {
    /// `--sample N`: the N mutants whose ids sort first. An id is a hash of
    /// the file, position and mutation, so the sample is spread over the
    /// code, the same on every machine, and unchanged by edits elsewhere.
    var sample: Int?
    /// `--shard K/N`: every N-th mutant (by id) starting at the K-th.
    var shard: Shard?
    /// `--id`: only these (empty: no filter).
    var ids: Set<String> = []

    func apply(_ points: [MutationPoint]) -> [MutationPoint] {
        var chosen = points.sorted { $0.id < $1.id }
        if !ids.isEmpty { chosen = chosen.filter { ids.contains($0.id) } }
        if let sample { chosen = Array(chosen.prefix(sample)) }
        if let shard { chosen = shard.slice(chosen) }
        let kept = Set(chosen.map(\.id))
        // Back in the order the finder produced them (file, then position).
        return points.filter { kept.contains($0.id) }
    }
}
