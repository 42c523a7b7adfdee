import Foundation
import Decoding

/// The sample clock of a regular-rate stream fitted from its time stamps:
/// the stamps are split where they jump back (a clock reset) or skip ahead
/// (a gap) by more than ``breakThreshold(nominalRate:)``, each segment gets
/// its own least-squares line of time against sample index (as pyxdf's
/// dejitter does), and the segments are joined back to back. Maps a time
/// onto the sample at or after it.
struct XDFSampleClock: Sendable {
    /// One run of samples whose stamps follow a single line.
    struct Segment: Sendable {
        /// Index of its first sample in the whole stream.
        var start: Int
        /// Samples in it.
        var count: Int
        /// Time of its first sample.
        var origin: Double
        /// Seconds per sample.
        var period: Double
        /// Time of the instant after its last sample.
        var end: Double { origin + Double(count) * period }
    }

    /// The segments in sample order.
    var segments: [Segment]
    /// The effective rate: samples over the fitted duration of all segments.
    var rate: Double
    /// What happened at each break, one line each.
    var warnings: [String]
    /// The skips ahead: the first sample after each, and the seconds missing.
    var skips: [ContinuousRecording.Skip] = []

    /// A jump of more than this many seconds between consecutive stamps is a
    /// break: 10 nominal periods, at least 0.1 s (real streams such as the
    /// OpenBCI GUI's jitter by up to about 35 ms).
    static func breakThreshold(nominalRate: Double) -> Double { max(0.1, nominalRate > 0 ? 10 / nominalRate : 0) }

    /// Fits `stamps` (already in the recording clock); `subject` names the
    /// stream in errors.
    init(stamps: [Double], nominalRate: Double, subject: String) throws {
        guard !stamps.isEmpty else { throw LabFormatError(subject, "the EEG stream holds no samples") }
        guard stamps.allSatisfy(\.isFinite) else { throw LabFormatError(subject, "the EEG stream has a time stamp that is not a finite number") }
        let steps = zip(stamps.dropFirst(), stamps).map { $0 - $1 }.sorted()
        let median = steps.isEmpty ? 0 : steps[steps.count / 2]
        // A sender that stamps each chunk once gives most steps 0: the mean step is the period then.
        let span = stamps.count > 1 ? (stamps[stamps.count - 1] - stamps[0]) / Double(stamps.count - 1) : 0
        let nominalPeriod = nominalRate > 0 ? 1 / nominalRate : (median > 0 ? median : span)
        guard nominalPeriod > 0 else { throw LabFormatError(subject, "the EEG stream has no nominal rate and its time stamps do not advance") }
        var warnings: [String] = []
        let stamps = Self.unchunked(stamps, period: nominalPeriod, warnings: &warnings)
        let threshold = Self.breakThreshold(nominalRate: 1 / nominalPeriod)
        var starts = [0]
        var skips: [ContinuousRecording.Skip] = []
        for i in 1..<max(stamps.count, 1) {
            let step = stamps[i] - stamps[i - 1]
            guard step > threshold || step < -threshold else { continue }
            starts.append(i)
            let at = String(format: "%.3f", stamps[i - 1] - stamps[0])
            if step < 0 {
                warnings.append("EEG time stamps jump back \(String(format: "%.3f", -step)) s after sample \(i - 1) (\(at) s into the stream): a clock reset? the parts are fitted separately and joined")
            } else {
                let missing = LineFit.ceilingIndex(step / nominalPeriod - 0.5) - 1
                skips.append(.init(sample: i, seconds: step - nominalPeriod))
                warnings.append("EEG time stamps skip \(String(format: "%.3f", step)) s after sample \(i - 1) (\(at) s into the stream): about \(missing) sample(s) missing; the parts are fitted separately and joined back to back")
            }
        }
        var segments: [Segment] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : stamps.count
            let local = Array(stamps[start..<end])
            let x = local.indices.map(Double.init)
            var period = nominalPeriod, origin = local[0]
            if let fit = LineFit.leastSquares(x: x, y: local), fit.slope > 0 {
                if abs(fit.slope - nominalPeriod) <= 0.1 * nominalPeriod || nominalRate <= 0 {
                    (period, origin) = (fit.slope, fit.intercept)
                } else {
                    warnings.append("EEG samples \(start)–\(end - 1): the time stamps give \(String(format: "%.3f", 1 / fit.slope)) Hz, more than 10 % off the nominal \(String(format: "%g", nominalRate)) Hz; the nominal rate is used there")
                    origin = local.reduce(0, +) / Double(local.count) - period * Double(local.count - 1) / 2
                }
            }
            segments.append(Segment(start: start, count: end - start, origin: origin, period: period))
        }
        let fitted = segments.filter { $0.count > 1 }
        let duration = fitted.reduce(0) { $0 + Double($1.count - 1) * $1.period }
        let samples = fitted.reduce(0) { $0 + $1.count - 1 }
        self.rate = duration > 0 ? Double(samples) / duration : 1 / nominalPeriod
        self.segments = segments
        self.warnings = warnings
        self.skips = skips
    }

    /// `stamps` where at least half the samples repeat the stamp before them
    /// (a sender that stamps each chunk once, as LSL's `push_chunk` stamps a
    /// chunk's last sample): each sample of a run of equal stamps is put
    /// `period`s before the run's last, which keeps the stamp; with a warning.
    /// Other streams are returned as they are.
    static func unchunked(_ stamps: [Double], period: Double, warnings: inout [String]) -> [Double] {
        let repeated = zip(stamps.dropFirst(), stamps).filter { $0 == $1 }.count
        guard stamps.count > 2, repeated * 2 >= stamps.count else { return stamps }
        var spread = stamps
        var last = stamps.count - 1
        for i in stride(from: stamps.count - 2, through: 0, by: -1) {
            if stamps[i] != stamps[i + 1] { last = i }
            spread[i] = stamps[i] - Double(last - i) * period
        }
        warnings.append("EEG time stamps repeat: \(repeated) of \(stamps.count) samples share the stamp before them (a sender that stamps each chunk once); each stamp is taken as its chunk's last sample's, the others \(RateText.format(1 / period)) Hz apart before it")
        return spread
    }

    /// The sample at or after each of `times` (in time order of arrival) and
    /// its seconds from the first sample. A time in a gap maps to the first
    /// sample after the gap; after a clock reset (a time that jumps back)
    /// the later segment holding it is chosen.
    func locate(_ times: [Double]) -> [(sample: Int, seconds: Double, inSkip: Bool)] {
        var current = 0
        var previous = -Double.infinity
        let threshold = Self.breakThreshold(nominalRate: rate)
        return times.map { t in
            let holding = segments.indices.filter { t >= segments[$0].origin - segments[$0].period / 2 && t < segments[$0].end }
            if t < previous - threshold, let later = holding.first(where: { $0 > current }) {
                current = later
            } else if !holding.contains(current) {
                if let later = holding.first(where: { $0 > current }) { current = later } else if let any = holding.first { current = any } else if let next = segments.indices.first(where: { $0 > 0 && segments[$0].origin > t && segments[$0 - 1].end <= t && $0 >= current }) {
                    previous = t
                    // In a skip ahead (not across a reset: the earlier part ends before it).
                    return (segments[next].start, Double(segments[next].start) / rate, segments[next - 1].end <= segments[next].origin)
                } else if t < segments[0].origin {
                    current = 0
                } else if let last = segments.indices.last(where: { segments[$0].origin <= t }) {
                    current = max(current, last)
                }
            }
            previous = t
            let s = segments[current]
            let position = (t - s.origin) / s.period
            let local = LineFit.ceilingIndex(position - 1e-6)
            return (s.start + local, (Double(s.start) + position) / rate, false)
        }
    }
}
