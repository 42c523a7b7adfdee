/// The decoder's preprocessing: a 2nd-order Butterworth high-pass at 3 Hz
/// and a notch at the mains frequency, run as one streaming filter. The
/// high-pass takes out drift and the slow 1/f background, whose few degrees
/// of freedom otherwise correlate with a code by chance (a user looking at
/// nothing then reaches a high certainty); the responses to 30-bit/s codes
/// lie above it. Its delay is under 2 samples above 10 Hz at 250 Hz, and
/// the response kernels absorb it, so the estimated latency stays the
/// recording's.
///
/// ```swift
/// let preprocessor = Preprocessor(sampleRate: 250, channels: 8, lineFrequency: 50)
/// let clean = preprocessor.apply(toTrial: dataset.trial(0))   // primed on the first sample
/// ```
public struct Preprocessor: Sendable {
    /// The filter, fresh (from rest); copy it to stream.
    public let filter: SOSFilter

    /// The preprocessing for `channels` channels at `sampleRate`.
    ///
    /// ```swift
    /// var stream = Preprocessor(sampleRate: 250, channels: 8).filter
    /// ```
    public init(sampleRate: Double, channels: Int, lineFrequency: Double = 50, highPass: Double = 3) {
        var f = SOSFilter.highPass(frequency: highPass, order: 2, sampleRate: sampleRate, channels: channels)
        if lineFrequency < sampleRate / 2 {
            f = f.followed(by: .notch(frequency: lineFrequency, quality: 30, sampleRate: sampleRate, channels: channels))
        }
        filter = f
    }

    /// Filters a whole trial (channels × samples), primed with its first
    /// sample so that the trial's offset causes no transient.
    ///
    /// ```swift
    /// let clean = preprocessor.apply(toTrial: raw)
    /// ```
    public func apply(toTrial trial: [[Double]]) -> [[Double]] {
        var f = filter
        f.prime(with: trial.map { $0.first ?? 0 })
        return f.process(trial)
    }
}
