@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct SessionClockTests {
    @Test func rotatesAfterThirtyMinutesWithoutActivity() {
        var ids = [UUID(), UUID(), UUID()].makeIterator()
        var session = SessionClock(id: ids.next()!, at: .seconds(0))
        let first = session.sessionID
        #expect(session.touch(at: .seconds(29 * 60), newID: { ids.next()! }) == first)
        #expect(session.touch(at: .seconds(59 * 60), newID: { ids.next()! }) == first)
        let second = session.touch(at: .seconds(89 * 60 + 1), newID: { ids.next()! })
        #expect(second != first)
    }
}
