@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct EventSizeTests {
    /// The contract's number, not the constant under test: 65,536 bytes
    /// (64 KiB) is the largest event, the next byte is too much.
    @Test func theLargestEventIsExactly64KiB() {
        #expect(EventValidator.checkSize(of: [UInt8](repeating: 0x20, count: 65_536)) == nil)
        #expect(EventValidator.checkSize(of: [UInt8](repeating: 0x20, count: 65_537)) == .eventTooLarge(bytes: 65_537))
    }
}
