#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real-time clock: `CLOCK_MONOTONIC`, unaffected by wall-clock changes.
public final class MonotonicClock: EngineClock, Sendable {
    /// One shared instance; the clock has no state.
    public static let shared = MonotonicClock()

    /// Creates a monotonic clock.
    public init() {}

    /// Seconds since boot (monotonic), in whole microseconds: printed with
    /// six decimals (as recordings do) it reads back as the same value.
    public var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        // Whole microseconds, as one division, so that the value printed with
        // six decimals (recordings) reads back as exactly the same Double.
        return Double(Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000) / 1e6
    }
}
