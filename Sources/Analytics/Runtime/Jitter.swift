import AnalyticsSupport
/// A source of numbers in `0..<1` for retry jitter.
///
/// ```swift
/// let jitter = Jitter.seeded(42)   // repeatable in a test
/// ```
public struct Jitter: Sendable {
    private let next: @Sendable () -> Double

    public init(_ next: @escaping @Sendable () -> Double) { self.next = next }

    /// The next number in `0..<1`.
    public func callAsFunction() -> Double { min(max(next(), 0), 0.999_999_999) }

    /// The system's random source.
    public static let live = Jitter { Double.random(in: 0..<1) }

    /// Always the same number (clamped into `0..<1`).
    public static func constant(_ value: Double) -> Jitter { Jitter { value } }

    /// A repeatable sequence (SplitMix64) from a seed.
    public static func seeded(_ seed: UInt64) -> Jitter {
        let state = Locked(seed)
        return Jitter {
            let bits = state.withLock { value -> UInt64 in
                value &+= 0x9E37_79B9_7F4A_7C15
                var z = value
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            return Double(bits >> 11) / Double(1 << 53)
        }
    }
}
