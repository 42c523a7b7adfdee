#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real-time clock: `CLOCK_MONOTONIC`, unaffected by wall-clock changes.
///
/// ```swift
/// NoiseTagging.clock === MonotonicClock.shared
/// ```
public final class MonotonicClock: EngineClock, Sendable {
    /// One shared instance; the clock has no state.
    ///
    /// ```swift
    /// let t = MonotonicClock.shared.now
    /// ```
    public static let shared = MonotonicClock()

    /// Creates a monotonic clock.
    ///
    /// ```swift
    /// let clock = MonotonicClock()
    /// ```
    public init() {}

    /// Seconds since boot (monotonic).
    ///
    /// ```swift
    /// let start = clock.now
    /// ```
    public var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
