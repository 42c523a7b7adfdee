import Decoding
import UtopiaProtocol

/// What a ``Redecoder`` run gave: every message the decoder sent, with its
/// time, in order; each calibration outcome, in order; and how many records
/// it skipped because their bytes were not one Utopia message.
///
/// ```swift
/// let redecoding = Redecoder().run(try DecoderInputFile.read(from: url))
/// redecoding.logLines.forEach { print($0) }
/// print(redecoding.calibrations.last?.decoder?.recommendedCertainty ?? "no model")
/// ```
public struct Redecoding: Sendable {
    /// Every message sent (predictions, signal quality, LOG, mode echoes, thresholds), in order.
    public var messages: [RedecodedMessage] = []
    /// Every fit's outcome, in the order fitted.
    public var calibrations: [CalibrationOutcome] = []
    /// Records skipped: their bytes were not exactly one Utopia message.
    public var undecodableRecords = 0

    /// An empty result, filled by ``Redecoder/run(_:)``.
    public init() {}

    /// The text of every LOG message, in order.
    public var logLines: [String] {
        messages.compactMap { if case .log(let line) = $0.message { return line.message } else { return nil } }
    }

    /// Every PREDICTEDTARGETPROB with its time, in order.
    public var predictions: [(time: Double, prediction: PredictedTargetProb)] {
        messages.compactMap { if case .predictedTargetProb(let p) = $0.message { return ($0.time, p) } else { return nil } }
    }
}
