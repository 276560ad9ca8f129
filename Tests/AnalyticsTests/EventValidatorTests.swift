@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct EventValidatorTests {
    let validator = EventValidator()

    @Test func acceptsContractNamesAndKeys() {
        #expect(EventValidator.isValidIdentifier("a"))
        #expect(EventValidator.isValidIdentifier("financial_card_activated_2"))
        #expect(EventValidator.isValidIdentifier("a" + String(repeating: "b", count: 63)))
    }

    @Test(arguments: ["", "Card", "1abc", "_x", "card-activated", "cart activated", "ação", "a" + String(repeating: "b", count: 64)])
    func rejectsNamesOutsideThePattern(name: String) {
        #expect(validator.filter(name: name, properties: [:]) == .failure(.invalidName(name)))
    }

    @Test func rejectsBadKeysNonFiniteNumbersAndLongStrings() {
        #expect(validator.filter(name: "e", properties: ["Bad Key": 1]) == .failure(.invalidKey("Bad Key")))
        #expect(validator.filter(name: "e", properties: ["x": .double(.nan)]) == .failure(.nonFiniteNumber(key: "x")))
        #expect(validator.filter(name: "e", properties: ["x": .double(-.infinity)]) == .failure(.nonFiniteNumber(key: "x")))
        let long = String(repeating: "é", count: 513)
        #expect(validator.filter(name: "e", properties: ["x": .string(long)]) == .failure(.stringTooLong(key: "x", bytes: 1026)))
        let atTheLimit = String(repeating: "a", count: 1024)
        #expect(validator.filter(name: "e", properties: ["x": .string(atTheLimit)]) == .success(.init(properties: ["x": .string(atTheLimit)], strippedKeys: [])),
                "1,024 bytes is within the limit")
    }

    @Test func stripsEveryDefaultForbiddenKey() {
        var properties: EventProperties = ["plan": "pro"]
        for key in ForbiddenKeys.defaults { properties[key] = "secret" }
        let result = validator.filter(name: "e", properties: properties)
        #expect(result == .success(.init(properties: ["plan": "pro"], strippedKeys: ForbiddenKeys.defaults.sorted())))
    }
}
