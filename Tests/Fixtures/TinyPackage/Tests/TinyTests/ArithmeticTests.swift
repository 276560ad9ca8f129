import Testing
import Tiny

struct ArithmeticTests {
    @Test func addsTwoNumbers() {
        #expect(Arithmetic.add(2, 3) == 5)
    }

    @Test func sumsDownToOne() {
        #expect(Arithmetic.sumDown(from: 3) == 6)
    }
}
