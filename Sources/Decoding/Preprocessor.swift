/// The decoder's preprocessing: a 2nd-order Butterworth high-pass at 0.5 Hz
/// (drift) and a notch at the mains frequency, run as one streaming filter.
/// Both leave the response's timing alone (well under a sample of delay
/// between 3 and 40 Hz), so the estimated latency is the recording's.
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
    public init(sampleRate: Double, channels: Int, lineFrequency: Double = 50, highPass: Double = 0.5) {
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
