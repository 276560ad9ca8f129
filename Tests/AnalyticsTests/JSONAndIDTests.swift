import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing
@testable import Analytics

/// The JSON parser the collector trusts, the writer every request goes
/// through, and the id generator, checked directly: each rule of RFC 8259
/// and RFC 9562 they implement, with the bytes that break it.
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test(arguments: [
        ("0", JSONValue.integer(0)), ("-0", .integer(0)), ("42", .integer(42)), ("-7", .integer(-7)),
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("1.5", .double(1.5)), ("1.0", .double(1)), ("-2.0", .double(-2)), ("1e3", .double(1000)), ("1e0", .double(1)), ("1E+2", .double(100)), ("25e-2", .double(0.25)), ("-0.5", .double(-0.5)),
    ])
    func numbersKeepIntegersApartFromDoubles(text: String, value: JSONValue) throws {
        #expect(try parse(text) == value)
    }

    @Test(arguments: [
        ("01", JSONParseError.trailingBytes(offset: 1)), ("-", .invalidNumber(offset: 0)), ("1.", .invalidNumber(offset: 0)),
        (".5", .unexpectedByte(UInt8(ascii: "."), offset: 0)), ("1e", .invalidNumber(offset: 0)), ("1e+", .invalidNumber(offset: 0)),
        ("2e400", .invalidNumber(offset: 0)), ("-x", .invalidNumber(offset: 0)), ("+1", .unexpectedByte(UInt8(ascii: "+"), offset: 0)),
        ("-.5", .invalidNumber(offset: 0)), ("-e5", .invalidNumber(offset: 0)),
        // A fraction needs a digit after the point, also when more follows.
        ("1.e5", .invalidNumber(offset: 0)), ("[1.]", .invalidNumber(offset: 1)),
    ])
    func malformedNumbersAreRefusedWhereTheyStart(text: String, error: JSONParseError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test func escapesDecodeToTheirCharacters() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00C9""#) == .string("éÉ"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"), "a surrogate pair is one character")
        #expect(try parse("\"é 😀\"") == .string("é 😀"), "raw UTF-8 passes through")
    }

    @Test(arguments: [
        (#""\ud83d""#, JSONParseError.invalidEscape(offset: 7)), (#""\ude00""#, .invalidEscape(offset: 7)),
        (#""\ud83d\u0041""#, .invalidEscape(offset: 13)), (#""\x""#, .invalidEscape(offset: 2)), (#""\u12g4""#, .invalidEscape(offset: 5)),
        (#""\u12"#, .unexpectedEnd), ("\"a\u{01}b\"", .unexpectedByte(0x01, offset: 2)), ("\"abc", .unexpectedEnd),
        // Input that ends inside an escape, or right after a high surrogate: an error, never a read past the end.
        (#""ab\"#, .unexpectedEnd), (#""\ud83d"#, .invalidEscape(offset: 7)), (#""\ud83d\"#, .invalidEscape(offset: 7)),
        (#""\ud83d\u"#, .unexpectedEnd), (#""\ud83dXude00""#, .invalidEscape(offset: 7)), (#""\ud83d\xde00""#, .invalidEscape(offset: 7)),
    ])
    func badEscapesAndControlCharactersAreRefused(text: String, error: JSONParseError) {
        #expect(throws: error) { try parse(text) }
    }

    /// Members are separated by commas; anything else is named with the
    /// offset where it stands.
    @Test(arguments: [
        (#"{"a":1 "b":2}"#, JSONParseError.unexpectedByte(UInt8(ascii: "\""), offset: 7)),
        (#"{"a":1]"#, .unexpectedByte(UInt8(ascii: "]"), offset: 6)),
        (#"{"a":1;"b":2}"#, .unexpectedByte(UInt8(ascii: ";"), offset: 6)),
    ])
    func objectMembersNeedACommaBetweenThem(text: String, error: JSONParseError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONParseError.invalidUTF8) { try JSONParser.parse([UInt8(ascii: "\""), 0xFF, 0xFE, UInt8(ascii: "\"")]) }
    }

    @Test func structureWithWhitespaceEverywhere() throws {
        let value = try parse(" \t\n{ \"a\" : [ 1 , true , null , false ] , \"b\" : { } , \"c\" : [ ] }\r\n")
        #expect(value == .object(["a": .array([.integer(1), .bool(true), .null, .bool(false)]), "b": .object([:]), "c": .array([])]))
    }

    @Test(arguments: [
        ("{\"a\":1,}", JSONParseError.unexpectedByte(UInt8(ascii: "}"), offset: 7)), ("[1,]", .unexpectedByte(UInt8(ascii: "]"), offset: 3)),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), offset: 3)), ("{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1"), offset: 5)),
        ("{1:2}", .unexpectedByte(UInt8(ascii: "1"), offset: 1)), ("tru", .unexpectedEnd), ("trux", .unexpectedByte(UInt8(ascii: "x"), offset: 3)),
        ("nul", .unexpectedEnd), ("[", .unexpectedEnd), ("{} x", .trailingBytes(offset: 3)), ("", .unexpectedEnd),
        ("{\"a\":1", .unexpectedEnd), ("[1", .unexpectedEnd),
    ])
    func malformedStructureIsRefusedAtItsOffset(text: String, error: JSONParseError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test func nestingStopsAtSixtyFourLevels() throws {
        #expect(throws: Never.self) { try parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) }
        #expect(throws: JSONParseError.tooDeep) { try parse(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)) }
        #expect(throws: JSONParseError.tooDeep) { try parse(String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)) }
        #expect(throws: Never.self) { try parse(String(repeating: "[[]],", count: 100).dropLast().description.wrappedInBrackets) }
        // Closed siblings give their level back exactly: thirty objects
        // before a 64-deep array still make 65 levels.
        let siblings = String(repeating: "{},", count: 30) + String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: JSONParseError.tooDeep) { try parse(siblings.wrappedInBrackets) }
        let arrays = String(repeating: "[],", count: 30) + String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: JSONParseError.tooDeep) { try parse(arrays.wrappedInBrackets) }
    }

    @Test func aDuplicateKeyIsNamedByItsFullPath() {
        #expect(throws: JSONParseError.duplicateKey(path: "events[1].props.plan")) {
            try parse(#"{"events":[{},{"props":{"plan":"a","plan":"b"}}]}"#)
        }
        #expect(throws: JSONParseError.duplicateKey(path: "a")) { try parse(#"{"a":1,"a":1}"#) }
        #expect(throws: Never.self) { try parse(#"{"a":{"b":1},"c":{"b":2}}"#) }
    }
}

struct JSONWriterTests {
    private func text(_ value: JSONValue) -> String { String(decoding: JSONWriter.encode(value), as: UTF8.self) }

    @Test(arguments: [(Int64(0), "0"), (-1, "-1"), (1_767_225_600_000, "1767225600000"), (.max, "9223372036854775807"), (.min, "-9223372036854775808")])
    func integersAreWrittenDigitForDigit(number: Int64, expected: String) {
        #expect(text(.integer(number)) == expected)
    }

    /// Strings made only of characters that need escaping, and plain ones
    /// with a space: each escaped exactly once, whichever way it is written.
    @Test(arguments: [
        ("\"", #""\"""#), ("\\", #""\\""#), ("\"\"", #""\"\"""#), ("\\\\", #""\\\\""#), ("a b", #""a b""#), ("\u{1F}", #""\u001f""#),
    ])
    func everyStringIsEscapedOnce(string: String, expected: String) throws {
        #expect(text(.string(string)) == expected)
        #expect(try JSONParser.parse(JSONWriter.encode(.string(string))) == .string(string), "the parser reads back what the writer wrote")
    }

    @Test(arguments: [
        (1.0, "1.0"), (-0.0, "-0.0"), (0.0, "0.0"), (0.5, "0.5"), (12.25, "12.25"), (-3.0, "-3.0"),
        (1e14, "100000000000000.0"), (999_999_999_999_999, "999999999999999.0"), (1e15, "1000000000000000.0"), (1e16, "1e+16"), (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func doublesStayDoublesOnTheWire(number: Double, expected: String) {
        #expect(text(.double(number)) == expected)
    }

    @Test func stringsEscapeOnlyWhatJSONRequires() {
        #expect(text(.string("plain é / 😀")) == "\"plain é / 😀\"")
        #expect(text(.string("q\"b\\n\nr\rt\tb\u{08}f\u{0C}")) == #""q\"b\\n\nr\rt\tb\bf\f""#)
        #expect(text(.string("\u{01}\u{1F}\u{00}")) == #""\u0001\u001f\u0000""#)
    }

    @Test func objectKeysAreInByteOrderSoEqualValuesAreEqualBytes() {
        #expect(text(.object(["b": .integer(1), "a": .null, "B": .bool(true), "aa": .array([.string("x"), .double(1)])]))
            == #"{"B":true,"a":null,"aa":["x",1.0],"b":1}"#)
    }

    @Test func whatTheWriterWritesTheParserReadsBack() throws {
        let value = JSONValue.object([
            "n": .integer(-12), "d": .double(0.1), "s": .string("a\"\\\n\u{01}é😀"), "t": .bool(true), "f": .bool(false), "z": .null,
            "list": .array([.object([:]), .array([]), .integer(.max)]),
        ])
        #expect(try JSONParser.parse(JSONWriter.encode(value)) == value)
    }
}

struct UUIDGeneratorTests {
    struct CountingSource: RandomNumberGenerator {
        var counter = UInt64(0)
        mutating func next() -> UInt64 {
            counter += 1
            return counter
        }
    }

    @Test func xoshiroMatchesTheReferenceSequence() {
        // Seeded with the state (1, 2, 3, 4): the reference implementation's (Blackman and Vigna's) outputs.
        var generator = Xoshiro256(seed: CountingSource())
        // Twelve outputs: the rotations' high bits only reach the result once the state has grown.
        #expect((0..<12).map { _ in generator.next() } == [
            11520, 0, 1_509_978_240, 1_215_971_899_390_074_240, 1_216_172_134_540_287_360, 607_988_272_756_665_600,
            16_172_922_978_634_559_625, 8_476_171_486_693_032_832, 10_595_114_339_597_558_777, 2_904_607_092_377_533_576,
            14_472_116_193_441_429_536, 1_266_835_380_287_703_300,
        ])
    }

    @Test func versionSevenCarriesTheMillisecondsVersionAndVariant() {
        var random = Xoshiro256(seed: CountingSource())
        let id = UUIDv7.make(milliseconds: 0x0123_4567_89AB, random: &random)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        #expect(Array(bytes[0..<6]) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB], "48-bit big-endian Unix milliseconds")
        #expect(bytes[6] >> 4 == 0x7, "version 7")
        #expect(bytes[8] >> 6 == 0b10, "RFC 9562 variant")
        #expect(id.wireString.hasPrefix("01234567-89ab-7"))
        #expect(id.wireString == id.uuidString.lowercased())
        var early = Xoshiro256(seed: CountingSource())
        let beforeEpoch = withUnsafeBytes(of: UUIDv7.make(milliseconds: -5, random: &early).uuid) { Array($0) }
        #expect(Array(beforeEpoch[0..<6]) == [0, 0, 0, 0, 0, 0], "a clock before 1970 stamps zero, never wraps")
    }

    struct ScriptedWords: RandomNumberGenerator {
        var words: [UInt64]
        mutating func next() -> UInt64 { words.removeFirst() }
    }

    @Test func everyRandomBitLandsWhereRFC9562PutsIt() {
        // rand_a: the low 4 bits and the next byte of the first word; rand_b:
        // the low 6 bits of the second word, then its bytes 1 to 7.
        var words = ScriptedWords(words: [0x1122_3344_5566_7788, 0x0123_4567_89AB_CDEF])
        let id = UUIDv7.make(milliseconds: 0x0123_4567_89AB, random: &words)
        #expect(id.wireString == "01234567-89ab-7877-afcd-ab8967452301")
    }

    @Test func jitterCoversTheWholeUnitInterval() {
        let jitter = Jitter.seeded(42)
        let draws = (0..<2000).map { _ in jitter() }
        #expect(draws.allSatisfy { (0..<1).contains($0) })
        #expect(draws.min()! < 0.01 && draws.max()! > 0.99, "spread over [0, 1), not a part of it")
        let again = Jitter.seeded(42)
        #expect((0..<2000).map { _ in again() } == draws, "a seed repeats its sequence")
    }

    /// `seeded` is SplitMix64: from seed 0 its first outputs are the
    /// reference values (Vigna's splitmix64.c), top 53 bits as the fraction.
    @Test func seededJitterIsSplitMix64() {
        let jitter = Jitter.seeded(0)
        let reference: [UInt64] = [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]
        #expect((0..<3).map { _ in jitter() } == reference.map { Double($0 >> 11) / Double(UInt64(1) << 53) })
    }

    /// The live source spreads over the interval: none of 2,000 draws sits
    /// on the clamp at its top.
    @Test func liveJitterStaysInsideTheUnitInterval() {
        let draws = (0..<2000).map { _ in Jitter.live() }
        #expect(draws.filter { $0 >= 0.999_999_999 }.isEmpty)
        #expect(draws.min()! < 0.05 && draws.max()! > 0.95)
    }

    @Test func timeOrderedIdsFollowTheClockAndNeverRepeat() {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_767_225_600))
        let ids = UUIDGenerator.timeOrdered(clock: clock)
        let first = (0..<1000).map { _ in ids() }
        #expect(Set(first).count == 1000)
        // 1,767,225,600,000 ms is 0x019b76daa800.
        #expect(first.allSatisfy { $0.wireString.hasPrefix("019b76da-a800-7") })
        clock.advance(by: .seconds(1))
        let later = ids()
        #expect(later.wireString > first[0].wireString, "ids sort by time")
        #expect(UUIDGenerator.timeOrdered(clock: clock)() != UUIDGenerator.timeOrdered(clock: clock)(), "two generators draw their own seeds")
    }
}

private extension String {
    var wrappedInBrackets: String { "[" + self + "]" }
}

/// The SQLite wrapper both the queue and the collector store rely on: every
/// value type goes in and comes back unchanged, the edges included.
struct SQLiteOpenTests {
    /// A folder that does not exist: SQLite cannot open the file; the error
    /// says so, and it is not "corrupt" (the SDK must not move a queue aside
    /// for it).
    @Test func aFileThatCannotBeOpenedIsNamedAndIsNotCorruption() throws {
        try withStorage { storage in
            let path = storage.appendingPathComponent("missing/events.sqlite").path
            #expect(throws: SQLiteError.open(path: path, code: 14, message: "unable to open database file")) { try SQLiteDatabase(path: path) }
            do {
                _ = try SQLiteDatabase(path: path)
            } catch let error as SQLiteError {
                #expect(!SQLiteDatabase.isCorruption(error))
            }
        }
    }

    /// Another connection's short write lock is waited out (the busy
    /// timeout), not answered with "database is locked" at once: the queue
    /// and the collector's store share files with other connections.
    @Test func aShortLockHeldByAnotherConnectionIsWaitedOut() throws {
        try withStorage { storage in
            let path = storage.appendingPathComponent("events.sqlite").path
            try SQLiteDatabase(path: path).execute("CREATE TABLE t (v)")
            // Whole seconds and a fraction, both count: 1.5 s (not 0.5 s, nor 1 s and 1 ms).
            let waiter = try SQLiteDatabase(path: path, busyTimeout: .milliseconds(1_500))
            let locked = DispatchSemaphore(value: 0)
            let released = DispatchSemaphore(value: 0)
            // The other connection lives on its own thread: it takes the write lock, holds it 700 ms, commits.
            Thread {
                let holder = try? SQLiteDatabase(path: path)
                try? holder?.execute("BEGIN IMMEDIATE; INSERT INTO t (v) VALUES (1)")
                locked.signal()
                usleep(700_000)
                try? holder?.execute("COMMIT")
                released.signal()
            }.start()
            locked.wait()
            try waiter.execute("INSERT INTO t (v) VALUES (2)")
            released.wait()
            #expect(try waiter.query("SELECT v FROM t ORDER BY v") == [[.integer(1)], [.integer(2)]])
        }
    }

    /// More values than the statement has placeholders is a mistake in the
    /// caller's SQL: refused, not run with the extra value dropped.
    @Test func aValueWithoutAPlaceholderIsRefused() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        #expect(throws: SQLiteError.bind(code: 25, message: "column index out of range")) { try database.query("SELECT ?", [.integer(1), .integer(2)]) }
        #expect(try database.query("SELECT ?", [.integer(1)]) == [[.integer(1)]])
    }

    @Test func aStatementSQLiteRefusesSaysWhy() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        #expect(throws: SQLiteError.step(code: 1, message: "near \"NOT\": syntax error")) { try database.execute("NOT SQL") }
    }

    /// An empty string is bound as an empty text, never as NULL (a buffer
    /// of no bytes may have no address: SQLite reads a NULL pointer as NULL).
    @Test func anEmptyTextIsBoundAsTextNotNull() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        #expect(try database.query("SELECT ?1, typeof(?1)", [.text("")]) == [[.text(""), .text("text")]])
        #expect(try database.query("SELECT ?1, typeof(?1)", [.text("a\u{0}b")]) == [[.text("a\u{0}b"), .text("text")]])
    }

    /// A prepared statement is reused: a later call with fewer values binds
    /// NULL to the rest, never the earlier call's values.
    @Test func aReusedStatementKeepsNoValueOfTheLastCall() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        #expect(try database.query("SELECT ?1, ?2", [.integer(1), .integer(2)]) == [[.integer(1), .integer(2)]])
        #expect(try database.query("SELECT ?1, ?2", [.integer(3)]) == [[.integer(3), .null]])
    }

    /// A transaction whose body fails leaves nothing behind, and the next one runs.
    @Test func aFailedTransactionIsRolledBack() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (v)")
        #expect(throws: SQLiteError.self) {
            try database.transaction { () throws(SQLiteError) in
                try database.execute("INSERT INTO t (v) VALUES (1)")
                try database.execute("NOT SQL")
            }
        }
        try database.transaction { () throws(SQLiteError) in try database.execute("INSERT INTO t (v) VALUES (2)") }
        #expect(try database.query("SELECT v FROM t") == [[.integer(2)]])
    }

    @Test func aFileThatIsNotADatabaseIsCorruption() throws {
        try withStorage { storage in
            let path = storage.appendingPathComponent("events.sqlite").path
            try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
            do {
                _ = try SQLiteDatabase(path: path)
                Issue.record("a file of letters opened as a database")
            } catch let error as SQLiteError {
                #expect(SQLiteDatabase.isCorruption(error), "\(error)")
            }
            #if os(Linux)
            // Refused, the file is closed: the SDK moves it aside next, and a
            // descriptor still open on it would be one lost at every start.
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
            }
            #expect(!open.contains(path), "the refused database is still open")
            #endif
        }
    }

    /// Only "not a database" (26) and "damaged" (11, with any extended
    /// code) are corruption; busy, full, read-only, I/O and cannot-open are not.
    @Test(arguments: [(Int32(26), true), (11, true), (779, true), (5, false), (13, false), (8, false), (10, false), (14, false), (0, false)])
    func whichCodesCountAsCorruption(code: Int32, corrupt: Bool) {
        #expect(SQLiteDatabase.isCorruption(.step(code: code, message: "")) == corrupt)
    }
}

struct SQLiteRoundTripTests {
    @Test(arguments: [
        SQLiteValue.text(""), .text("x"), .text("a\u{0}b"), .text("é😀"), .integer(0), .integer(.min), .real(0.5),
        .blob([]), .blob([0]), .blob([1, 2, 3]), .null,
    ])
    func aValueComesBackAsItWentIn(value: SQLiteValue) throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (v)")
        try database.query("INSERT INTO t (v) VALUES (?)", [value])
        #expect(try database.query("SELECT v FROM t") == [[value]])
    }
}
