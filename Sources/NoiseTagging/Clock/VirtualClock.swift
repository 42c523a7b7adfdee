/// A clock that only moves when told to: deterministic tests and replay.
///
/// ```swift
/// let clock = VirtualClock()
/// clock.advance(by: 0.5)
/// ```
public final class VirtualClock: EngineClock {
    /// The current virtual time in seconds.
    public private(set) var now: Double

    /// Creates a virtual clock at `start` seconds.
    ///
    /// ```swift
    /// let clock = VirtualClock(start: 100)
    /// ```
    public init(start: Double = 0) { now = start }

    /// Moves time forward by `seconds` (negative values are ignored: the clock is monotonic).
    ///
    /// ```swift
    /// clock.advance(by: 1.0 / 60)
    /// ```
    public func advance(by seconds: Double) {
        if seconds > 0 { now += seconds }
    }

    /// Moves time forward to `time` (earlier times are ignored).
    ///
    /// ```swift
    /// clock.advance(to: 6.0)
    /// ```
    public func advance(to time: Double) {
        if time > now { now = time }
    }
}
