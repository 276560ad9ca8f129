import Foundation

/// Runs `body` on `count` threads of their own at once (as an app's threads
/// call the SDK) and returns once every one has finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    let finished = DispatchGroup()
    for _ in 0..<count {
        finished.enter()
        Thread {
            body()
            finished.leave()
        }.start()
    }
    finished.wait()
}
