import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct BackoffTests {
    @Test func doublesFromTheBaseWithJitterInTheUpperHalf() {
        let backoff = Backoff()
        #expect(backoff.delay(afterFailures: 1, jitter: 0) == .seconds(4))
        #expect(backoff.delay(afterFailures: 1, jitter: 0.5) == .seconds(5))
        #expect(backoff.delay(afterFailures: 1, jitter: 0.999) < .seconds(6))
        #expect(backoff.delay(afterFailures: 5, jitter: 0) == .seconds(64))
        #expect(backoff.delay(afterFailures: 5, jitter: 0.5) == .seconds(80))
    }

    @Test func isCappedAtFifteenMinutes() {
        let backoff = Backoff()
        #expect(backoff.delay(afterFailures: 10, jitter: 0.999) <= .seconds(900))
        #expect(backoff.delay(afterFailures: 1000, jitter: 0.999) <= .seconds(900))
        #expect(backoff.delay(afterFailures: 1000, jitter: 0) == .seconds(720))
        #expect(backoff.delay(afterFailures: 9, jitter: 0.999) == .seconds(900))
        #expect(backoff.delay(retryAfter: 86_400) == .seconds(900))
        #expect(backoff.delay(retryAfter: 7) == .seconds(7))
    }

    @Test func aJitterSourceOutOfRangeCannotStretchOrShrinkTheWait() {
        let backoff = Backoff()
        let stretched = backoff.delay(afterFailures: 1, jitter: 7)
        #expect(stretched > .milliseconds(5_999) && stretched < .milliseconds(6_001), "clamped to 1: at most 20% over the ceiling")
        #expect(backoff.delay(afterFailures: 1, jitter: -3) == .seconds(4), "clamped to 0: at most 20% under")
    }

    @Test func aNegativeRetryAfterMeansNow() {
        #expect(Backoff().delay(retryAfter: -30) == .zero)
        #expect(Backoff().delay(retryAfter: 0) == .zero)
    }
}
