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

    /// Seconds since boot (monotonic), in whole microseconds: printed with
    /// six decimals (as recordings do) it reads back as the same value.
    ///
    /// ```swift
    /// let start = clock.now
    /// ```
    public var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        // Whole microseconds, as one division, so that the value printed with
        // six decimals (recordings) reads back as exactly the same Double.
        return Double(Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000) / 1e6
    }
}
