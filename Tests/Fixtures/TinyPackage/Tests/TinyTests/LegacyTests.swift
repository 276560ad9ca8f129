import Tiny
import XCTest

final class LegacyTests: XCTestCase {
    func testAddIsCommutative() {
        XCTAssertEqual(Arithmetic.add(4, 1), Arithmetic.add(1, 4))
        XCTAssertEqual(Arithmetic.add(4, 1), 5)
    }
}
