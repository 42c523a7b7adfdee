#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real-time clock: `CLOCK_MONOTONIC`, unaffected by wall-clock changes.
/// The engine reads it in seconds (``now``), the decoder and the acquisition
/// clients in milliseconds (``milliseconds()``), the benchmarks in integer
/// nanoseconds (``nanoseconds()``): one clock, three units.
public final class MonotonicClock: EngineClock, Sendable {
    /// One shared instance; the clock has no state.
    public static let shared = MonotonicClock()

    /// Creates a monotonic clock.
    public init() {}

    /// Seconds since boot (monotonic), in whole microseconds: printed with
    /// six decimals (as recordings do) it reads back as the same value.
    public var now: Double {
        let spec = Self.reading()
        // Whole microseconds, as one division, so that the value printed with
        // six decimals (recordings) reads back as exactly the same Double.
        return Double(Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000) / 1e6
    }

    /// Milliseconds since boot (monotonic), unwrapped: the time the decoder
    /// and the acquisition clients keep, stamped on the wire with
    /// ``EngineClock/utopiaTimestamp(milliseconds:)``.
    public static func milliseconds() -> Double {
        let spec = reading()
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
    }

    /// Nanoseconds since boot as an integer: no floating point on a timed path.
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        let spec = reading()
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    @inline(__always)
    private static func reading() -> timespec {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return spec
    }
}
