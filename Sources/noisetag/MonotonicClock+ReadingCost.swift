import NoiseTagging

extension MonotonicClock {
    /// The median cost of one pair of ``nanoseconds()`` calls, in
    /// nanoseconds: the floor under every timed sample of the benchmarks.
    static func readingCost(samples: Int = 100_001) -> UInt64 {
        var deltas = [UInt64](repeating: 0, count: samples)
        for i in 0..<samples {
            let start = nanoseconds()
            deltas[i] = nanoseconds() &- start
        }
        deltas.sort()
        return deltas[samples / 2]
    }
}
