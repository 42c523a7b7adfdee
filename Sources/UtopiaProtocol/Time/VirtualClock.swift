/// A clock that only moves when told to: deterministic tests and replay.
public final class VirtualClock: EngineClock {
    /// The current virtual time in seconds.
    public private(set) var now: Double

    /// Creates a virtual clock at `start` seconds.
    public init(start: Double = 0) { now = start }

    /// Moves time forward by `seconds` (negative values are ignored: the clock is monotonic).
    public func advance(by seconds: Double) {
        if seconds > 0 { now += seconds }
    }

    /// Moves time forward to `time` (earlier times are ignored).
    public func advance(to time: Double) {
        if time > now { now = time }
    }
}
