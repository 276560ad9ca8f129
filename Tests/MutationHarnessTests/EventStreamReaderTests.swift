import Foundation
import Testing
@testable import MutationHarness

/// The Swift Testing event stream, read as explore reads it while the tests
/// run (one line at a time) and after they end (the whole file).
struct EventStreamReaderTests {
    private func issue(_ test: String, _ message: String) -> String {
        #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/\#(test)/F.swift:1:1","#
            + #""issue":{"isFailure":true,"isKnown":false},"messages":[{"text":"\#(message)"}]}}"#
    }

    @Test func everyFailingTestIsListedOnceWithItsFirstMessageInOrder() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            try [issue("b()", "first of b"), issue("a()", "first of a"), issue("b()", "second of b")].joined(separator: "\n")
                .write(to: stream, atomically: true, encoding: .utf8)
            let summary = try #require(EventStreamReader.read(stream))
            #expect(summary.failures == [.init(id: "M.S/b()", message: "first of b"), .init(id: "M.S/a()", message: "first of a")])
        }
    }

    /// A stream that does not say whether an issue fails or is known (as
    /// older toolchains write it) records a failure: missing is not "known".
    @Test(arguments: [
        #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()"}}"#,
        #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()","issue":{}}}"#,
    ])
    func anIssueThatSaysNothingMoreIsAFailure(line: String) {
        #expect(EventStreamReader.failingIssue(in: Data(line.utf8)) == .init(id: "M.S/t()", message: nil))
    }

    /// Only event records report issues; a record of another kind that looks
    /// like one (a test declaration, say) is not a failure.
    /// A test whose name holds "issueRecorded" starts like any other: only
    /// an issue event is a failure.
    @Test func aTestNamedLikeAnIssueIsNoFailure() {
        let line = #"{"kind":"event","payload":{"kind":"testStarted","testID":"M.S/issueRecordedTwice()/F.swift:1:1"}}"#
        #expect(EventStreamReader.failingIssue(in: Data(line.utf8)) == nil)
    }

    /// An issue that says it fails but not whether it is known is a
    /// failure: only `isKnown: true` excuses it.
    @Test func aFailingIssueThatDoesNotSayItIsKnownIsAFailure() {
        let line = #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()","issue":{"isFailure":true}}}"#
        #expect(EventStreamReader.failingIssue(in: Data(line.utf8)) == .init(id: "M.S/t()", message: nil))
        let known = #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()","issue":{"isFailure":true,"isKnown":true}}}"#
        #expect(EventStreamReader.failingIssue(in: Data(known.utf8)) == nil)
    }

    /// A suite starts like a test but is not one: what a crash left
    /// unfinished is the tests, never their suite.
    @Test func aSuiteThatNeverEndedIsNoUnfinishedTest() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            try [
                #"{"kind":"test","payload":{"kind":"suite","id":"M.S"}}"#,
                #"{"kind":"test","payload":{"kind":"function","id":"M.S/t()/F.swift:2:3"}}"#,
                #"{"kind":"event","payload":{"kind":"testStarted","testID":"M.S"}}"#,
                #"{"kind":"event","payload":{"kind":"testStarted","testID":"M.S/t()/F.swift:2:3"}}"#,
            ].joined(separator: "\n").write(to: stream, atomically: true, encoding: .utf8)
            let summary = try #require(EventStreamReader.read(stream))
            #expect(summary.unfinished == ["M.S/t()"])
        }
    }

    /// A test that ended is no longer unfinished; the others still are.
    /// A test id loses its source location, however few parts it has.
    @Test func onlyTheTestsThatEndedAreFinished() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            let started = ["a()", "b()", "c()"].map { #"{"kind":"event","payload":{"kind":"testStarted","testID":"M.S/\#($0)/F.swift:1:1"}}"# }
            try (started + [#"{"kind":"event","payload":{"kind":"testEnded","testID":"M.S/b()/F.swift:1:1"}}"#])
                .joined(separator: "\n").write(to: stream, atomically: true, encoding: .utf8)
            #expect(try #require(EventStreamReader.read(stream)).unfinished == ["M.S/a()", "M.S/c()"])
        }
        #expect(EventStreamReader.testID("Mod.free()/A.swift:3:6") == "Mod.free()")
        #expect(EventStreamReader.testID("Mod.S/t()") == "Mod.S/t()")
    }

    @Test func aRecordThatIsNoEventIsNoFailure() {
        let line = #"{"kind":"test","payload":{"kind":"issueRecorded","testID":"M.S/t()","issue":{"isFailure":true,"isKnown":false}}}"#
        #expect(EventStreamReader.failingIssue(in: Data(line.utf8)) == nil)
    }

    /// A record of a kind the stream does not use for issues (a newer
    /// toolchain's, say) is no failure either, whatever its payload holds.
    @Test func aRecordOfAnotherKindIsNoFailure() {
        let line = #"{"kind":"message","payload":{"kind":"issueRecorded","testID":"M.S/t()","issue":{"isFailure":true,"isKnown":false}}}"#
        #expect(EventStreamReader.failingIssue(in: Data(line.utf8)) == nil)
    }

    /// A failing issue is read whatever its messages say, even the words
    /// the stream uses for its own events.
    @Test func anIssueWhoseMessagesNameEveryEventIsStillAFailure() {
        let line = #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()/F.swift:1:1","issue":{"isFailure":true,"isKnown":false},"#
            + #""messages":[{"text":"testStarted"},{"text":"testEnded"},{"text":"suite"}]}}"#
        #expect(EventStreamReader.failingIssue(in: Data(line.utf8)) == .init(id: "M.S/t()", message: "testStarted"))
    }

    /// A test whose display name is "suite" is still a test: a crash
    /// leaves it unfinished.
    @Test func aTestDisplayedAsSuiteIsNoSuite() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            try [
                #"{"kind":"test","payload":{"kind":"function","id":"M.S/t()/F.swift:2:3","displayName":"suite"}}"#,
                #"{"kind":"event","payload":{"kind":"testStarted","testID":"M.S/t()/F.swift:2:3"}}"#,
            ].joined(separator: "\n").write(to: stream, atomically: true, encoding: .utf8)
            #expect(try #require(EventStreamReader.read(stream)).unfinished == ["M.S/t()"])
        }
    }

    /// The baseline's silences are the tests' only: a suite, which runs
    /// around its tests, never has one of its own.
    @Test func aSuiteHasNoSilenceOfItsOwn() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            func event(_ kind: String, _ id: String, at seconds: Double) -> String {
                #"{"kind":"event","payload":{"kind":"\#(kind)","testID":"\#(id)","instant":{"since1970":\#(seconds)}}}"#
            }
            try [
                #"{"kind":"test","payload":{"kind":"suite","id":"M.S"}}"#,
                event("testStarted", "M.S", at: 0.5), event("testStarted", "M.S/a()/F.swift:1:1", at: 1.5),
                event("testEnded", "M.S/a()/F.swift:1:1", at: 4.5), event("testEnded", "M.S", at: 5.5),
            ].joined(separator: "\n").write(to: stream, atomically: true, encoding: .utf8)
            #expect(EventStreamReader.quietWhileRunning(stream) == ["M.S/a()": 3])
        }
    }
}
