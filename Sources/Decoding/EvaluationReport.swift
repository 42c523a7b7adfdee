/// What offline evaluation measured: the decoding curve, times, latency,
/// certainty, and (for plots) the last fold's model.
public struct EvaluationReport: Codable, Sendable {
    /// Classes in the dataset.
    public var classes: Int
    /// Trials in the dataset.
    public var trials: Int
    /// Channels in the dataset.
    public var channels: Int
    /// Sample rate in Hz.
    public var sampleRate: Double
    /// The recording's own rate, above ``sampleRate`` when it was decimated for decoding.
    public var recordedSampleRate: Double
    /// Number of chronological folds.
    public var folds: Int
    /// One row per evaluated length.
    public var rows: [EvaluationRow]
    /// Mean seconds to fit the model (latency search included) per fold.
    public var fitSeconds: Double
    /// Mean seconds per fold to calibrate the certainty (inner cross-validation).
    public var calibrationSeconds: Double
    /// Mean microseconds per incremental update (one `updateInterval` of samples, all classes).
    public var updateMicroseconds: Double
    /// The response's measured onset per fold, in seconds (whether or not
    /// the fold's model window starts there).
    public var latencies: [Double]
    /// Recommended `certaintyRequiredForPress` per fold.
    public var recommendedCertainties: [Double]
    /// The target error rate the certainty was chosen for.
    public var targetErrorRate: Double
    /// The false presses per minute it was chosen to allow while nobody
    /// looks (``OfflineEvaluation/idlePressesPerMinute``).
    public var idlePressBudget: Double
    /// The last fold's spatial pattern (per channel).
    public var spatialPattern: [Double]
    /// The last fold's responses, per event.
    public var kernels: [[Double]]
    /// Where the last fold's response window (``kernels``) starts, in seconds after the stimulus.
    public var kernelStart: Double = 0
    /// Names of the events of `kernels`.
    public var eventLabels: [String]
    /// Fraction of test trials in which the certainty reached the fold's
    /// recommended threshold (a press).
    public var pressedFraction: Double
    /// Fraction of those presses on the target.
    public var pressAccuracy: Double
    /// Mean seconds from trial start to the press.
    public var meanPressSeconds: Double
    /// Minutes of idle EEG (the user looking at none of the codes) that the
    /// fold decoders listened to, all folds together; 0 without idle data.
    public var idleMinutes: Double = 0
    /// Presses the fold decoders made on the idle EEG at their recommended certainty: all false.
    public var idlePresses: Int = 0
    /// The mains frequency found in the recording and notched with its
    /// harmonics; nil when it was given or none stood out.
    public var mainsFrequency: Double? = nil
    /// Per fold, what its selection chose, with the three best candidates
    /// (empty without selection).
    public var choices: [SettingsSelection.Outcome] = []
    /// False presses per minute of idle EEG (0 without idle data).
    public var idlePressesPerMinute: Double { idleMinutes > 0 ? Double(idlePresses) / idleMinutes : 0 }

    /// The median estimated latency in seconds.
    public var latency: Double { latencies.isEmpty ? 0 : latencies.sorted()[latencies.count / 2] }

    /// The median recommended certainty.
    public var recommendedCertainty: Double {
        recommendedCertainties.isEmpty ? 1 - 1e-6 : recommendedCertainties.sorted()[recommendedCertainties.count / 2]
    }
}
