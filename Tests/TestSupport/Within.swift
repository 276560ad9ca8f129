import Foundation

/// Whether `body` returned within `seconds`. A call that never returns
/// (a wait a bug left without an end) then fails its test at once instead
/// of hanging the test run until its time limit; the call goes on in the
/// background until the process ends.
public func returns(within seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let decided = Decided()
    return await withCheckedContinuation { continuation in
        Task {
            await body()
            if decided.first() { continuation.resume(returning: true) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if decided.first() { continuation.resume(returning: false) }
        }
    }
}

/// The first of two racers to ask wins.
private final class Decided: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func first() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { done = true }
        return !done
    }
}
