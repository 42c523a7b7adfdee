import Foundation
import NoiseTagging
import UtopiaProtocol

/// The decoder's signal quality over a session: every SIGNALQUALITY it sent
/// the engine (the `in` rows with id `Q` of each recording's `decoder.csv`,
/// Protocols/recordings.md), per channel the noise fraction n / (n + s),
/// 0 clean … 1 all noise (Protocols/reference-decoder.md), on the engine
/// clock of the recordings' `time` fields.
public struct SignalQualityTrace: Sendable, Equatable {
    /// One SIGNALQUALITY as the engine received it.
    public struct Sample: Sendable, Equatable {
        /// Engine seconds it was drained from the link.
        public var time: Double
        /// Noise fraction per channel, in channel order.
        public var quality: [Double]
    }

    /// Every assessment, in time order.
    public private(set) var samples: [Sample] = []
    /// Rows with id `Q` whose bytes did not decode as a SIGNALQUALITY.
    public private(set) var unreadable = 0

    /// Reads the `decoder.csv` of each recording folder (missing files are skipped).
    public init(recordings: [URL]) {
        for folder in recordings { read(folder.appendingPathComponent("decoder.csv")) }
        samples.sort { $0.time < $1.time }
    }

    /// A trace from samples (for tests and other sources).
    public init(samples: [Sample]) { self.samples = samples.sorted { $0.time < $1.time } }

    /// The most channels any assessment gave.
    public var channels: Int { samples.map(\.quality.count).max() ?? 0 }

    /// Per channel, the mean noise fraction within each of at most `count`
    /// equal stretches of `range` (those holding samples): a session's hour
    /// of assessments every 0.5 s drawn as a few hundred points.
    public func binned(into count: Int, over range: ClosedRange<Double>) -> [[(time: Double, quality: Double)]] {
        let width = max(range.upperBound - range.lowerBound, 1e-9) / Double(max(count, 1))
        var sums = [[Double]](repeating: [Double](repeating: 0, count: count), count: channels)
        var counts = [[Int]](repeating: [Int](repeating: 0, count: count), count: channels)
        var times = [Double](repeating: 0, count: count), timeCounts = [Int](repeating: 0, count: count)
        for sample in samples where range.contains(sample.time) {
            let bin = min(count - 1, Int((sample.time - range.lowerBound) / width))
            times[bin] += sample.time
            timeCounts[bin] += 1
            for (c, q) in sample.quality.enumerated() where q.isFinite {
                sums[c][bin] += q
                counts[c][bin] += 1
            }
        }
        return (0..<channels).map { c in
            (0..<count).compactMap { b in
                counts[c][b] > 0 ? (times[b] / Double(timeCounts[b]), sums[c][b] / Double(counts[c][b])) : nil
            }
        }
    }

    /// Per channel, the median noise fraction of what arrived after `from`
    /// and up to `to` (nil where none): a step's own, as a signal check
    /// judges it (one that arrived in the tick the step began came before it).
    public func medians(from start: Double, to end: Double) -> [Double?] {
        let inside = Self.dataReadings(samples.filter { $0.time > start && $0.time <= end }.map(\.quality))
        return (0..<channels).map { c in
            Self.median(inside.compactMap { c < $0.count && $0[c].isFinite ? $0[c] : nil })
        }
    }

    /// `readings` (noise fractions per channel, in time order) from the
    /// first that holds any signal: the leading ones of 1 on every channel
    /// are a decoder's word that no EEG has reached it yet (the reference
    /// decoder's "no data" for its first second), not noise measured; all
    /// of them stay when no later one holds signal (a dead amplifier).
    public static func dataReadings(_ readings: [[Double]]) -> [[Double]] {
        guard let first = readings.firstIndex(where: { $0.contains { $0 < 1 } }) else { return readings }
        return Array(readings[first...])
    }

    /// The median of `values` (the mean of the middle two of an even
    /// count); nil for none. The one median of signal checks and reports.
    public static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The `in` rows with id `Q`: `time,wall_time,in,Q,hex`. Only those rows are
    /// split (a session's `decoder.csv` is mostly STIMULUSEVENTs); a line cut
    /// off by a crash is left out by the reader.
    private mutating func read(_ url: URL) {
        let reader = RecordingFileReader(url)
        guard reader.exists else { return }
        let marker = Array(",in,Q,".utf8)
        reader.forEachLineRange { range in
            let line = reader.data[range]
            guard let markerStart = Self.firstRange(of: marker, in: line) else { return }
            let time = Double(String(decoding: line[line.startIndex..<line.index(of: 0x2C)], as: UTF8.self))
            let hex = line[(markerStart + marker.count)...]
            guard let time, let bytes = Hex.bytes(hex),
                  case .signalQuality(let message)? = try? UtopiaCodec.decode(frame: bytes).first else {
                unreadable += 1
                return
            }
            samples.append(Sample(time: time, quality: message.quality.map(Double.init)))
        }
    }

    private static func firstRange(of marker: [UInt8], in line: Data) -> Data.Index? {
        // The marker is the third and fourth cells: look only after the first comma.
        guard let firstComma = line.firstIndex(of: 0x2C),
              let secondComma = line[(firstComma + 1)...].firstIndex(of: 0x2C),
              line.endIndex - secondComma >= marker.count,
              line[secondComma..<(secondComma + marker.count)].elementsEqual(marker) else { return nil }
        return secondComma
    }
}

private extension Data {
    func index(of byte: UInt8) -> Data.Index { firstIndex(of: byte) ?? endIndex }
}
