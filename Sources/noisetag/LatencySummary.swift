import Histogram

/// Median and tails of a set of nanosecond samples, from an HdrHistogram
/// (three significant digits).
struct LatencySummary: Encodable {
    let count: Int
    let medianNs: UInt64
    let p99Ns: UInt64
    let p999Ns: UInt64
    let maxNs: UInt64

    init(_ samples: [UInt64]) {
        var histogram = Self.histogram()
        for sample in samples { histogram.record(max(sample, 1)) }
        count = samples.count
        medianNs = histogram.valueAtPercentile(50)
        p99Ns = histogram.valueAtPercentile(99)
        p999Ns = histogram.valueAtPercentile(99.9)
        maxNs = histogram.max
    }

    /// An empty HdrHistogram for nanosecond samples up to 60 s at three
    /// significant digits: the one every benchmark's percentiles come from.
    static func histogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000_000,
                          numberOfSignificantValueDigits: .three)
    }
}
