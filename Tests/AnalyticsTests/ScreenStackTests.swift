import Foundation
import Testing
@testable import Analytics

/// `ScreenStack` as a plain value, operation by operation (docs/screen-stack.md):
/// what each returns, with durations from the uptime passed in.
struct ScreenStackTests {
    /// Ids 1, 2, 3, ... so an emission names its visit plainly.
    final class Ids {
        var next = 0
        func make() -> UUID {
            next += 1
            return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", next))!
        }
    }

    private func id(_ number: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))! }
    private func at(_ seconds: Int) -> Duration { .seconds(seconds) }

    @Test func enterOpensAVisitAndReenteringTheOpenTopResumesIt() {
        var stack = ScreenStack()
        let ids = Ids()
        #expect(stack.enter("home", at: at(0), newID: ids.make) == [.enter(screen: "home", visitID: id(1), modal: false)])
        #expect(stack.enter("home", at: at(5), newID: ids.make) == [], "onAppear fired twice changes nothing")
        #expect(stack.enter("cards", at: at(7), newID: ids.make) == [
            .exit(screen: "home", visitID: id(1), durationMs: 7000, reason: .replace),
            .enter(screen: "cards", visitID: id(2), modal: false),
        ])
        #expect(stack.entries.map(\.name) == ["cards"], "enter replaces the top")
    }

    @Test func pushCoversAndPopOpensANewVisitOfTheUncoveredScreen() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        #expect(stack.push("paywall", at: at(10), newID: ids.make) == [
            .exit(screen: "home", visitID: id(1), durationMs: 10_000, reason: .cover),
            .enter(screen: "paywall", visitID: id(2), modal: true),
        ])
        #expect(stack.pop(at: at(14), newID: ids.make) == [
            .exit(screen: "paywall", visitID: id(2), durationMs: 4000, reason: .pop),
            .enter(screen: "home", visitID: id(3), modal: false),
        ], "a new visit on a fresh clock, not the old one resumed")
        #expect(stack.pop(at: at(20), newID: ids.make) == [.exit(screen: "home", visitID: id(3), durationMs: 6000, reason: .pop)])
        #expect(stack.pop(at: at(21), newID: ids.make) == [], "popping an empty stack does nothing")
    }

    @Test func nestedModalsUnwindOneLevelAtATime() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        _ = stack.push("sheet", at: at(1), newID: ids.make)
        _ = stack.push("camera", at: at(2), newID: ids.make)
        #expect(stack.pop(at: at(3), newID: ids.make).last == .enter(screen: "sheet", visitID: id(4), modal: true),
                "dismissing the camera shows the sheet, not home")
    }

    @Test func popNamedRemovesThatScreenAndEverythingAbove() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        _ = stack.push("a", at: at(1), newID: ids.make)
        _ = stack.push("b", at: at(2), newID: ids.make)
        #expect(stack.pop(named: "a", at: at(5), newID: ids.make) == [
            .exit(screen: "b", visitID: id(3), durationMs: 3000, reason: .pop),
            .enter(screen: "home", visitID: id(4), modal: false),
        ])
        #expect(stack.pop(named: "nowhere", at: at(6), newID: ids.make) == [])
        #expect(stack.entries.map(\.name) == ["home"])
    }

    @Test func replacingWithAnEmptyNameChangesNothing() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        _ = stack.push("detail", at: at(1), newID: ids.make)
        #expect(stack.replace("home", with: "", at: at(2), newID: ids.make) == [])
        #expect(stack.replace("detail", with: "", at: at(2), newID: ids.make) == [])
        #expect(stack.entries.map(\.name) == ["home", "detail"], "a screen without a name is never on the stack")
    }

    @Test func replaceAndRemoveBelowTheTopAreSilentOnTopTheyActLikeEnterAndPop() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        _ = stack.push("detail", at: at(1), newID: ids.make)
        #expect(stack.replace("home", with: "feed", at: at(2), newID: ids.make) == [])
        #expect(stack.entries.map(\.name) == ["feed", "detail"])
        #expect(stack.replace("detail", with: "edit", at: at(3), newID: ids.make) == [
            .exit(screen: "detail", visitID: id(2), durationMs: 2000, reason: .replace),
            .enter(screen: "edit", visitID: id(3), modal: true),
        ])
        _ = stack.push("help", at: at(4), newID: ids.make)
        #expect(stack.remove("edit", at: at(5), newID: ids.make) == [])
        #expect(stack.entries.map(\.name) == ["feed", "help"])
        #expect(stack.remove("help", at: at(6), newID: ids.make) == [
            .exit(screen: "help", visitID: id(4), durationMs: 2000, reason: .pop),
            .enter(screen: "feed", visitID: id(5), modal: false),
        ])
    }

    @Test func anonymousScreensAreIgnored() {
        var stack = ScreenStack()
        let ids = Ids()
        #expect(stack.enter("", at: at(0), newID: ids.make) == [])
        #expect(stack.push("", at: at(0), newID: ids.make) == [])
        #expect(stack.entries.isEmpty)
        #expect(ids.next == 0, "no visit id is spent")
    }

    @Test func backgroundClosesForegroundReopensAndTheStackIsKept() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        _ = stack.push("sheet", at: at(1), newID: ids.make)
        #expect(stack.leaveForeground(.background, at: at(3)) == [.exit(screen: "sheet", visitID: id(2), durationMs: 2000, reason: .background)])
        #expect(stack.push("other", at: at(4), newID: ids.make) == [], "no visit opens in background")
        #expect(stack.returnToForeground(at: at(60), newID: ids.make) == [.enter(screen: "other", visitID: id(3), modal: true)])
        #expect(stack.returnToForeground(at: at(61), newID: ids.make) == [], "a second foreground changes nothing")
        #expect(stack.entries.map(\.name) == ["home", "sheet", "other"])
        #expect(stack.leaveForeground(.terminate, at: at(62)).first == .exit(screen: "other", visitID: id(3), durationMs: 2000, reason: .terminate))
    }

    @Test func stopClosesTheVisitAndEmptiesTheStack() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(0), newID: ids.make)
        #expect(stack.stop(at: at(9)) == [.exit(screen: "home", visitID: id(1), durationMs: 9000, reason: .stop)])
        #expect(stack.entries.isEmpty)
        #expect(stack.stop(at: at(10)) == [], "nothing open, nothing sent")
    }

    @Test func aClockThatGoesBackNeverGivesANegativeDuration() {
        var stack = ScreenStack()
        let ids = Ids()
        _ = stack.enter("home", at: at(10), newID: ids.make)
        #expect(stack.stop(at: at(5)) == [.exit(screen: "home", visitID: id(1), durationMs: 0, reason: .stop)])
    }
}
