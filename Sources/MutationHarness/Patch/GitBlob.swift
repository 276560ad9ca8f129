import Foundation

/// Git's blob objects as a patch names them on its `index` line: the id of
/// a file's content (SHA-1 of `blob <size>\0` and the bytes), and the text
/// of a blob read back from the package's repository, so `rebase` can
/// start from the source a mutant was recorded against.
enum GitBlob {
    /// How many hex digits a rewritten patch's `index` line gives: enough
    /// to be unambiguous in any repository of this size, short enough to read.
    static let abbreviation = 12

    /// The blob id git gives `text` (`git hash-object`), abbreviated.
    static func id(of text: String) -> String {
        let bytes = Array(text.utf8)
        var sha = SHA1()
        sha.update(Array("blob \(bytes.count)\0".utf8))
        sha.update(bytes)
        return String(sha.finalize().prefix(abbreviation))
    }

    /// Whether `id` can name a blob: 4 to 40 hex digits (never an option).
    static func isID(_ id: String) -> Bool {
        (4...40).contains(id.count) && id.allSatisfy(\.isHexDigit)
    }

    /// The text of blob `id` in the git repository that holds `root`
    /// (`git cat-file blob`, which only reads); nil outside a repository,
    /// for a blob it does not have, or for an id that is not one.
    static func text(of id: String, near root: URL) -> String? {
        guard isID(id), id != String(repeating: "0", count: id.count),
              let result = try? CapturedCommand.run(["git", "-C", root.path, "cat-file", "blob", id]), result.status == 0
        else { return nil }
        return String(data: result.output, encoding: .utf8)
    }
}

/// SHA-1 (FIPS 180-4), only to name blobs as git does: it is not used
/// where a collision would matter (the incremental keys use `SHA256`).
struct SHA1 {
    private var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
    private var blocks = DigestBlocks()

    mutating func update(_ bytes: [UInt8]) {
        for block in blocks.add(bytes) { compress(block) }
    }

    /// The digest as 40 lowercase hex digits.
    mutating func finalize() -> String {
        for block in blocks.finish() { compress(block) }
        return DigestBlocks.hex(state)
    }

    private mutating func compress(_ block: [UInt8]) {
        var w = DigestBlocks.words(block) + [UInt32](repeating: 0, count: 64)
        for i in 16..<80 { w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(1) }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for i in 0..<80 {
            let (f, k): (UInt32, UInt32) = switch i {
            case 0..<20: ((b & c) | (~b & d), 0x5a82_7999)
            case 20..<40: (b ^ c ^ d, 0x6ed9_eba1)
            case 40..<60: ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
            default: (b ^ c ^ d, 0xca62_c1d6)
            }
            let temp = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[i]
            (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, temp)
        }
        for (i, value) in [a, b, c, d, e].enumerated() { state[i] = state[i] &+ value }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { (self << count) | (self >> (32 - count)) }
}
