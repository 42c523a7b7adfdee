/// The decoder's preprocessing, one streaming filter: a 2nd-order
/// Butterworth high-pass (3 Hz by default), optionally a 4th-order
/// Butterworth low-pass (the band a ``FitCandidate`` chooses), and a notch
/// at the mains frequency and, when asked, its harmonics below the Nyquist
/// frequency. The high-pass takes out drift and the slow 1/f background,
/// whose few degrees of freedom otherwise correlate with a code by chance
/// (a user looking at nothing then reaches a high certainty); the responses
/// to 30-bit/s codes lie above it. Its delay is under 2 samples above 10 Hz
/// at 250 Hz, and the response kernels absorb it, so the estimated latency
/// stays the recording's.
///
/// The same filter serves the live decoder (streaming), offline evaluation
/// and calibration (over a dataset's continuous context when it has one:
/// ``TrialsDataset/preprocessedTrials(_:)``) and replay.
public struct Preprocessor: Sendable {
    /// The filter, fresh (from rest); copy it to stream.
    public let filter: SOSFilter
    /// The re-reference applied before the filter (``apply(toTrial:)``;
    /// a stream applies it to each chunk before its copy of ``filter``).
    public let reference: ChannelReference

    /// The preprocessing for `channels` channels at `sampleRate`: the
    /// high-pass, a low-pass when `lowPass` is below the Nyquist frequency,
    /// and a Q = 30 notch at `lineFrequency` (and at each multiple below
    /// 95 % of the Nyquist frequency with `harmonics`).
    public init(sampleRate: Double, channels: Int, lineFrequency: Double = 50, highPass: Double = 3,
                lowPass: Double? = nil, harmonics: Bool = false, reference: ChannelReference = .asRecorded) {
        self.reference = reference
        var f = SOSFilter.highPass(frequency: highPass, order: 2, sampleRate: sampleRate, channels: channels)
        if let lowPass, lowPass < 0.45 * sampleRate {
            f = f.followed(by: .lowPass(frequency: lowPass, order: 4, sampleRate: sampleRate, channels: channels))
        }
        var line = lineFrequency
        while line < sampleRate / 2 * (line == lineFrequency ? 1 : 0.95) {
            f = f.followed(by: .notch(frequency: line, quality: 30, sampleRate: sampleRate, channels: channels))
            guard harmonics else { break }
            line += lineFrequency
        }
        filter = f
    }

    /// Refuses a sample rate that leaves nothing above the high-pass (half
    /// the rate must lie above it): its error names the rate, not the EEG.
    public static func check(sampleRate: Double, highPass: Double = 3) throws(ReconvolutionError) {
        guard sampleRate / 2 > highPass else {
            throw .unusableSetting("a sample rate of \(RateText.format(sampleRate)) Hz leaves nothing above the decoder's "
                                   + "\(RateText.format(highPass)) Hz high-pass (half the rate must lie above it)")
        }
    }

    /// Filters a whole trial (channels × samples), primed with its first
    /// sample so that the trial's offset causes no transient.
    public func apply(toTrial trial: [[Double]]) -> [[Double]] {
        let referenced = reference.apply(to: trial)
        var f = filter
        f.prime(with: referenced.map { $0.first ?? 0 })
        return f.process(referenced)
    }
}
