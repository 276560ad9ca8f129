import AnalyticsSupport
import Foundation

/// Makes the ids the SDK stamps: event ids, session ids, visit ids, install ids.
///
/// ```swift
/// let ids = UUIDGenerator.live
/// let eventID = ids()
/// ```
public struct UUIDGenerator: Sendable {
    private let make: @Sendable () -> UUID

    /// Wraps any id source.
    public init(_ make: @escaping @Sendable () -> UUID) { self.make = make }

    /// Returns the next id.
    public func callAsFunction() -> UUID { make() }

    /// Random (version 4) ids from the system's secure random source.
    public static let random = UUIDGenerator { UUID() }

    /// Time-ordered (version 7) ids: 48 bits of Unix milliseconds from the
    /// clock, then 74 random bits from a xoshiro256** generator seeded once
    /// from the system's secure random source. Event ids need uniqueness, not
    /// secrecy, and this keeps a system call off every `track`. (Install ids
    /// use `random`, straight from the secure source.)
    public static func timeOrdered(clock: any AnalyticsClock = SystemClock()) -> UUIDGenerator {
        let seedSource = SystemRandomNumberGenerator()
        let state = Locked(Xoshiro256(seed: seedSource))
        return UUIDGenerator {
            state.withLock { generator in UUIDv7.make(milliseconds: EpochMilliseconds.of(clock.now()), random: &generator) }
        }
    }
}

/// xoshiro256** (Blackman and Vigna): fast, 256 bits of state.
struct Xoshiro256: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed source: some RandomNumberGenerator) {
        var source = source
        repeat {
            state = (source.next(), source.next(), source.next(), source.next())
        } while state == (0, 0, 0, 0)
    }

    mutating func next() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }
}

/// RFC 9562 version 7 layout.
enum UUIDv7 {
    static func make(milliseconds: Int64, random: inout some RandomNumberGenerator) -> UUID {
        let ms = UInt64(max(0, milliseconds))
        let high = random.next() as UInt64
        let low = random.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: ms >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: high & 0x0F)
        bytes[7] = UInt8(truncatingIfNeeded: high >> 8)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: low & 0x3F)
        for index in 9..<16 { bytes[index] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(index - 8))) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

extension UUID {
    /// Lower-case canonical form, as ids travel on the wire.
    var wireString: String { String(decoding: wireBytes, as: UTF8.self) }

    /// The lower-case canonical form as ASCII bytes, without `uuidString`'s
    /// allocations (this runs for every event).
    var wireBytes: [UInt8] {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        withUnsafeBytes(of: uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
