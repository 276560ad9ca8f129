import Testing
import Tiny

struct ArithmeticTests {
    @Test func addsTwoNumbers() {
        #expect(Arithmetic.add(2, 3) == 5)
    }

    @Test func countsDownToOne() {
        #expect(Arithmetic.countdown(from: 3) == [3, 2, 1])
    }
}
