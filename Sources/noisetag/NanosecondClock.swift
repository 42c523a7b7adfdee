#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds of `CLOCK_MONOTONIC`, read as an integer (no floating point
/// on the timed path).
enum NanosecondClock {
    /// The monotonic clock in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The median cost of one `now()` call pair, in nanoseconds: the floor
    /// under every timed sample.
    static func overhead(samples: Int = 100_001) -> UInt64 {
        var deltas = [UInt64](repeating: 0, count: samples)
        for i in 0..<samples {
            let start = now()
            deltas[i] = now() &- start
        }
        deltas.sort()
        return deltas[samples / 2]
    }
}
