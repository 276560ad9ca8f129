/// The uploader's decisions as a value: what to do after each thing that
/// happens. It owns no queue, clock or network; the runner applies the actions.
///
/// Rules (docs/delivery.md): a batch goes out at `batchSize` queued events or
/// `maximumAge` after the oldest, at once on flush and when the network comes
/// back; one request in flight; after a retryable failure only the retry
/// timer sends, so events tracked meanwhile cause no extra requests.
struct DeliveryMachine: Equatable {
    struct Policy: Equatable {
        var batchSize = 25
        var maximumAge: Duration = .seconds(60)
        var backoff = Backoff()
    }

    enum Phase: Equatable {
        case idle
        case sending
        case waitingToRetry
    }

    enum Action: Equatable {
        case none
        /// Send the oldest `limit` events (and cancel any armed timer).
        case send(limit: Int)
        /// Arm the single timer; when it fires, call `timerFired`.
        case armTimer(after: Duration)
    }

    let policy: Policy
    private(set) var phase = Phase.idle
    private(set) var consecutiveFailures = 0
    private(set) var batchLimit: Int
    private(set) var uploadsAllowed: Bool
    /// A flush asked for everything queued to go out now.
    private(set) var draining = false
    private(set) var timerArmed = false

    init(policy: Policy = Policy(), uploadsAllowed: Bool = true) {
        self.policy = policy
        self.batchLimit = policy.batchSize
        self.uploadsAllowed = uploadsAllowed
    }

    /// An event was queued (or events were found queued at start).
    mutating func eventsQueued(count: Int, oldestAge: Duration) -> Action {
        guard phase == .idle, uploadsAllowed, count > 0 else { return .none }
        if count >= policy.batchSize || draining { return send() }
        guard !timerArmed else { return .none }
        return armTimer(after: policy.maximumAge - oldestAge)
    }

    /// Background, terminate, stop or an explicit flush.
    mutating func flushRequested(count: Int) -> Action {
        guard count > 0 else { return .none }
        draining = true
        guard phase == .idle, uploadsAllowed else { return .none }
        return send()
    }

    /// The timer armed by an earlier action fired.
    mutating func timerFired(count: Int) -> Action {
        timerArmed = false
        if phase == .waitingToRetry { phase = .idle }
        guard phase == .idle, uploadsAllowed, count > 0 else { return .none }
        return send()
    }

    /// Connectivity or low-power state changed.
    mutating func uploadsAllowedChanged(_ allowed: Bool, count: Int) -> Action {
        let cameBack = allowed && !uploadsAllowed
        uploadsAllowed = allowed
        guard cameBack, phase != .sending, count > 0 else { return .none }
        phase = .idle
        return send()
    }

    /// The request in flight finished with `outcome`; `count` and
    /// `oldestAge` describe the queue after the runner applied it.
    mutating func batchFinished(_ outcome: DeliveryOutcome, sentCount: Int, count: Int, oldestAge: Duration, jitter: Double) -> Action {
        phase = .idle
        switch outcome {
        case .delivered, .dropBatch:
            consecutiveFailures = 0
            batchLimit = policy.batchSize
            return next(count: count, oldestAge: oldestAge)
        case .dropEvents:
            return count > 0 && uploadsAllowed ? send() : next(count: count, oldestAge: oldestAge)
        case .split:
            batchLimit = max(1, sentCount / 2)
            return uploadsAllowed ? send() : .none
        case .retry(let retryAfter):
            consecutiveFailures += 1
            phase = .waitingToRetry
            let delay = retryAfter.map(policy.backoff.delay(retryAfter:))
                ?? policy.backoff.delay(afterFailures: consecutiveFailures, jitter: jitter)
            return armTimer(after: delay)
        }
    }

    /// `stop()`: no timer any more. A flush asked for just before keeps
    /// draining the queue batch after batch; a failure ends it, and what is
    /// left waits on disk for the next start.
    mutating func stopped() {
        timerArmed = false
    }

    private mutating func next(count: Int, oldestAge: Duration) -> Action {
        guard count > 0 else {
            draining = false
            return .none
        }
        guard uploadsAllowed else { return .none }
        if draining || count >= policy.batchSize { return send() }
        return armTimer(after: policy.maximumAge - oldestAge)
    }

    private mutating func send() -> Action {
        phase = .sending
        timerArmed = false
        return .send(limit: batchLimit)
    }

    private mutating func armTimer(after delay: Duration) -> Action {
        timerArmed = true
        return .armTimer(after: max(.zero, delay))
    }
}
