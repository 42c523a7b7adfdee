import Decoding

/// What fitting a calibration gave: the decoder, when one could be fitted,
/// and the LOG lines to send (saved folder, accuracy, decoding curve,
/// recommended certainty, or why it failed).
///
/// ```swift
/// let outcome = job.run()
/// if let decoder = outcome.decoder { print(decoder.recommendedCertainty) }
/// ```
public struct CalibrationOutcome: Sendable {
    /// The fitted decoder; nil when the calibration could not be fitted.
    public let decoder: CalibratedDecoder?
    /// Lines for LOG messages, in order.
    public let log: [String]

    /// An outcome from its parts.
    ///
    /// ```swift
    /// let failed = CalibrationOutcome(decoder: nil, log: ["calibration failed: one class only"])
    /// ```
    public init(decoder: CalibratedDecoder?, log: [String]) {
        self.decoder = decoder
        self.log = log
    }
}
