#if canImport(Glibc)
import Glibc
#endif

/// The Utopia wire clock of this machine: `CLOCK_MONOTONIC` in milliseconds,
/// the clock the engine stamps its messages with.
public enum WireClock {
    /// Milliseconds since boot (monotonic), unwrapped.
    public static func milliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
    }

    /// `milliseconds` as a wire timestamp: the low 32 bits of the whole milliseconds.
    public static func stamp(_ milliseconds: Double) -> Int32 {
        guard milliseconds.isFinite, abs(milliseconds) < 9.2e18 else { return 0 }
        return Int32(truncatingIfNeeded: Int64(milliseconds.rounded(.down)))
    }
}
