import AnalyticsSupport
import Analytics
import Foundation

extension UUIDGenerator {
    /// Ordered ids that never collide with another generator's: each
    /// generator draws a random 64-bit prefix, then counts in the low bits.
    /// (Two generators that both counted from 1 once hid a regenerated
    /// install id.)
    public static func unique() -> UUIDGenerator {
        var random = SystemRandomNumberGenerator()
        return unique(prefix: random.next())
    }

    /// The same ids with a prefix of the caller's: each is `prefix`'s 8
    /// bytes, then the counter's (version and variant bits set), counting
    /// from `start + 1`.
    package static func unique(prefix: UInt64, start: UInt64 = 0) -> UUIDGenerator {
        let counter = Locked<UInt64>(start)
        return UUIDGenerator {
            let value = counter.withLock { count -> UInt64 in
                count += 1
                return count
            }
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: prefix >> (8 * UInt64(7 - index))) }
            for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(15 - index))) }
            bytes[6] = 0x40 | (bytes[6] & 0x0F)
            bytes[8] = 0x80 | (bytes[8] & 0x3F)
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }
}
