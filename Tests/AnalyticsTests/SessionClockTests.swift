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

    /// The 30 minutes count from the last activity, not the first: events
    /// 20 minutes apart stay in one session however long it runs.
    @Test func aSessionLastsWhileActivityContinues() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            for index in 0..<4 {
                client.track(1, startingAt: index)
                client.clock.advance(by: .seconds(20 * 60))
            }
            client.analytics.flush()
            let sessions = client.transport.sentEvents.map(\.sessionID)
            #expect(sessions.count == 4 && Set(sessions).count == 1, "\(sessions)")
        }
    }
}
