/// What SHA-1 and SHA-256 share (FIPS 180-4): bytes gathered into 64-byte
/// blocks, the last ones padded with the message's length in bits, and the
/// state's words printed as hex.
struct DigestBlocks {
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Adds `bytes`; returns the blocks they completed, to compress in order.
    mutating func add<Bytes: Sequence>(_ bytes: Bytes) -> [[UInt8]] where Bytes.Element == UInt8 {
        var full: [[UInt8]] = []
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == 64 {
                full.append(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        return full
    }

    /// The last blocks: what is pending, a 1 bit, zeros, and the length.
    mutating func finish() -> [[UInt8]] {
        let bits = length &* 8
        var last = pending
        last.append(0x80)
        while last.count % 64 != 56 { last.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { last.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        pending = []
        return stride(from: 0, to: last.count, by: 64).map { Array(last[$0..<$0 + 64]) }
    }

    /// `words` as lowercase hex, 8 digits each.
    static func hex(_ words: [UInt32]) -> String {
        words.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }.joined()
    }

    /// A block's sixteen big-endian words.
    static func words(_ block: [UInt8]) -> [UInt32] {
        (0..<16).map { i in
            UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
    }
}
