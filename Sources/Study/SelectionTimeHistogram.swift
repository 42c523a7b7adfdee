import Foundation

/// Selection times (seconds from a trial's start to its press) counted in
/// bins of equal, round width: 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5 … seconds,
/// the narrowest that covers the times in at most `maximumBins` bins, the
/// first starting at a multiple of the width at or below the shortest
/// time. A value on a bin's edge counts in the bin it starts.
///
/// ```swift
/// let histogram = SelectionTimeHistogram(seconds: [1.0, 1.1, 1.3, 2.6])
/// histogram.width          // 0.1
/// histogram.origin         // 1.0
/// histogram.counts         // [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]: [1, 1.1) holds 1.0
/// ```
public struct SelectionTimeHistogram: Sendable, Equatable {
    /// The times counted, in the order given.
    public let seconds: [Double]
    /// Every bin's width in seconds.
    public let width: Double
    /// Where the first bin starts.
    public let origin: Double
    /// Counts per bin; bin `i` is [origin + i × width, origin + (i + 1) × width).
    public let counts: [Int]

    /// Bins `seconds` (negative and non-finite values are left out).
    public init(seconds: [Double], maximumBins: Int = 20) {
        let kept = seconds.filter { $0.isFinite && $0 >= 0 }
        self.seconds = kept
        let low = kept.min() ?? 0, high = kept.max() ?? 0
        func bins(_ width: Double) -> Int {
            Int((high / width + 1e-9).rounded(.down)) - Int((low / width + 1e-9).rounded(.down)) + 1
        }
        var width = 0.1
        for factor in [1.0, 2, 2.5, 5] + [10.0, 20, 25, 50] + [100.0, 200, 250, 500] {
            width = 0.1 * factor
            if bins(width) <= max(1, maximumBins) { break }
        }
        self.width = width
        // Edges are multiples of 0.1 s: rounded to the microsecond, 3 × 0.1 is 0.3.
        origin = ((low / width + 1e-9).rounded(.down) * width * 1e6).rounded() / 1e6
        var counts = [Int](repeating: 0, count: kept.isEmpty ? 0 : bins(width))
        let first = Int((low / width + 1e-9).rounded(.down))
        for value in kept { counts[min(counts.count - 1, Int((value / width + 1e-9).rounded(.down)) - first)] += 1 }
        self.counts = counts
    }

    /// The lower edge of bin `index`.
    public func lowerEdge(_ index: Int) -> Double { ((origin + Double(index) * width) * 1e6).rounded() / 1e6 }

    /// The mean time, nil without any.
    public var mean: Double? { seconds.isEmpty ? nil : seconds.reduce(0, +) / Double(seconds.count) }

    /// The median time, nil without any.
    public var median: Double? {
        guard !seconds.isEmpty else { return nil }
        let sorted = seconds.sorted(), mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
