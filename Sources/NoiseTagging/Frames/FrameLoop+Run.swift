extension FrameLoop {
    /// Why ``run(maxSeconds:stopRequested:_:)`` returned.
    public enum Ending: Equatable, Sendable {
        /// `afterFrame` said the run is done (the last press's feedback and
        /// action have played out).
        case finished
        /// `stopRequested` turned true (SIGINT, SIGTERM, a key).
        case stopped
        /// `maxSeconds` of clock time passed first.
        case timedOut
    }

    /// The one loop of every run without a screen — the headless demo, the
    /// headless study session, a demo against an external decoder: a frame,
    /// then `afterFrame`, until `afterFrame` returns false, `stopRequested()`
    /// turns true or `maxSeconds` (0: no limit) pass on the controller's
    /// clock. When finished, frames go on while a press's feedback shows, so
    /// its action runs before the caller tears down.
    public func run(maxSeconds: Double = 0, stopRequested: () -> Bool, _ afterFrame: () -> Bool) -> Ending {
        let start = controller.clock.now
        while true {
            step()
            guard afterFrame() else { break }
            if stopRequested() { return .stopped }
            if maxSeconds > 0, controller.clock.now - start > maxSeconds { return .timedOut }
        }
        while controller.isShowingFeedback && !stopRequested() { step() }
        return .finished
    }
}
