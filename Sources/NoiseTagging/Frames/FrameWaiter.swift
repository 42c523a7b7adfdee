#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until a frame's deadline. The real one sleeps on the monotonic
/// clock; the virtual one moves a ``VirtualClock``, so the frame loop and its
/// missed-frame detection run unchanged in tests and replay.
public protocol FrameWaiter: AnyObject {
    /// Returns at or after `deadline` (engine-clock seconds).
    func wait(until deadline: Double)
}

/// Sleeps with `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)` to an
/// absolute deadline, so sleeps never add up into drift.
public final class RealTimeFrameWaiter: FrameWaiter {
    /// Creates the waiter.
    public init() {}

    /// Sleeps until `deadline` on the monotonic clock.
    public func wait(until deadline: Double) {
        guard deadline.isFinite, deadline > 0 else { return }
        var spec = timespec()
        spec.tv_sec = Int(deadline.rounded(.down))
        spec.tv_nsec = Int((deadline - deadline.rounded(.down)) * 1e9)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }
}

/// Moves a ``VirtualClock`` to each deadline, plus any lateness a test asks
/// for with ``delay(frame:by:)``.
public final class VirtualFrameWaiter: FrameWaiter {
    private let clock: VirtualClock
    private var delays: [Double] = []
    private var calls = 0

    /// Creates a waiter driving `clock`.
    public init(clock: VirtualClock) { self.clock = clock }

    /// Makes the `frame`-th wait (0-based count of waits) return `seconds` late.
    public func delay(frame: Int, by seconds: Double) {
        if delays.count <= frame { delays += Array(repeating: 0, count: frame + 1 - delays.count) }
        delays[frame] = seconds
    }

    /// Advances the clock to `deadline` plus the planned delay.
    public func wait(until deadline: Double) {
        let extra = calls < delays.count ? delays[calls] : 0
        calls += 1
        clock.advance(to: deadline + extra)
    }
}
