import Decoding
import UtopiaProtocol

/// What fitting a calibration gave: the decoder, when one could be fitted,
/// the LOG lines to send (saved folder, accuracy, decoding curve,
/// recommended certainty, or why it failed), and the same facts typed for
/// the CALIBRATIONRESULT message (``result(at:)``).
public struct CalibrationOutcome: Sendable {
    /// The fitted decoder; nil when the calibration could not be fitted.
    public let decoder: CalibratedDecoder?
    /// Lines for LOG messages, in order.
    public let log: [String]
    /// The calibration trials the fit was given.
    public let trials: Int
    /// The chosen settings' cross-validated accuracy (0…1) at
    /// ``accuracySeconds``; nil when not measured (fewer than 5 trials, or no model).
    public let accuracy: Double?
    /// The trial length ``accuracy`` is for.
    public let accuracySeconds: Double?
    /// The chosen settings when fitted; why not otherwise.
    public let summary: String

    /// An outcome from its parts.
    public init(decoder: CalibratedDecoder?, log: [String], trials: Int = 0, accuracy: Double? = nil, accuracySeconds: Double? = nil,
                summary: String? = nil) {
        self.decoder = decoder
        self.log = log
        self.trials = trials
        self.accuracy = accuracy
        self.accuracySeconds = accuracySeconds
        self.summary = summary ?? log.last ?? ""
    }

    /// The CALIBRATIONRESULT message for this outcome, stamped `timestamp`.
    public func result(at timestamp: Int32) -> CalibrationResult {
        CalibrationResult(timestamp: timestamp, fitted: decoder != nil, trials: Int32(clamping: trials),
                          accuracy: accuracy.map(Float.init) ?? .nan, seconds: accuracySeconds.map(Float.init) ?? .nan, summary: summary)
    }
}
