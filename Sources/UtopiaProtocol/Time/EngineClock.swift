/// The one source of time for the engine, the decoder and the tools: a
/// monotonic clock in seconds.
///
/// The controller never sleeps and never reads the wall clock for decisions;
/// it asks its clock. Production code uses ``MonotonicClock``; tests and
/// replay use ``VirtualClock`` so trials are reproducible. The Utopia wire
/// stamps every message with this time in wrapping int32 milliseconds
/// (``utopiaTimestamp(for:)``).
public protocol EngineClock: AnyObject {
    /// Seconds since an arbitrary fixed origin; never decreases.
    var now: Double { get }
}

extension EngineClock {
    /// The Utopia wire timestamp for `now`: int32 milliseconds, wrapping.
    public var utopiaTimestamp: Int32 { Self.utopiaTimestamp(milliseconds: now * 1000) }

    /// The Utopia wire timestamp (int32 milliseconds, wrapping) for a time in seconds.
    @inlinable
    public static func utopiaTimestamp(for seconds: Double) -> Int32 {
        utopiaTimestamp(milliseconds: seconds * 1000)
    }

    /// The Utopia wire timestamp for a time in milliseconds: the low 32 bits
    /// of the whole milliseconds (rounded down); 0 for a value that is not finite.
    @inlinable
    public static func utopiaTimestamp(milliseconds: Double) -> Int32 {
        let millis = milliseconds.rounded(.down)
        // Within ±2^63 ms (292 million years) the low 32 bits of the integer
        // are the wrapped value; beyond, only the remainder is exact.
        if abs(millis) < 9.2e18 { return Int32(truncatingIfNeeded: Int64(millis)) }
        guard millis.isFinite else { return 0 }
        let wrapped = millis.truncatingRemainder(dividingBy: 4_294_967_296)
        return Int32(truncatingIfNeeded: Int64(wrapped))
    }
}
