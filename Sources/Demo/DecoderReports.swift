import NoiseTagging
import UtopiaProtocol

/// What the decoder has told the engine, gathered from the engine's
/// decoder traffic for the screen: its LOG lines (the calibration's
/// decoding curve, for people to read), its CALIBRATIONRESULT (whether a
/// model came, and its accuracy), the thresholds it recommended, its latest
/// SIGNALQUALITY, and the leading object of the current trial with its
/// certainty. Works the same for the embedded and an external decoder; one
/// that sends no CALIBRATIONRESULT (MindAffect's) is known to have fitted
/// only by its CERTAINTYTHRESHOLD, or not at all.
///
/// ```swift
/// let reports = DecoderReports()
/// controller.observeDecoderTraffic { reports.hear($0) }
/// // … after calibration …
/// reports.calibrationAccuracy        // 0.9, from the decoder's CALIBRATIONRESULT
/// ```
public final class DecoderReports {
    /// Thresholds received (CERTAINTYTHRESHOLD), oldest first.
    public private(set) var thresholds: [Double] = []
    /// LOG lines received since the last ``markCalibrationStart()``.
    public private(set) var calibrationLines: [String] = []
    /// The latest SIGNALQUALITY values (noise fraction per channel, 0…1), empty before the first.
    public private(set) var signalQuality: [Double] = []
    /// The current trial's leading object and its certainty (1 − Perr), nil before a prediction.
    public private(set) var leading: (objectID: Int, certainty: Double)?
    /// The latest CALIBRATIONRESULT since ``markCalibrationStart()``.
    public private(set) var calibrationResult: CalibrationResult?
    /// True once the decoder said a fit produced no model (its CALIBRATIONRESULT says why).
    public var calibrationFailed: Bool { calibrationResult.map { !$0.fitted } ?? false }

    /// Empty reports.
    public init() {}

    /// True when the wait for a fit that began at `since` is over at `now`:
    /// the decoder sent a threshold or said no model came, or `timeout`
    /// seconds passed without either.
    public func fitHasEnded(since: Double, now: Double, timeout: Double) -> Bool {
        !thresholds.isEmpty || calibrationFailed || now - since >= timeout
    }

    /// Takes one message of decoder traffic.
    public func hear(_ traffic: DecoderTraffic) {
        switch (traffic.direction, traffic.message) {
        case (.in, .log(let line)):
            calibrationLines.append(line.message)
        case (.in, .calibrationResult(let result)):
            calibrationResult = result
        case (.in, .certaintyThreshold(let advice)):
            thresholds.append(Double(advice.threshold))
        case (.in, .signalQuality(let quality)):
            signalQuality = quality.quality.map { $0.isFinite ? min(max(Double($0), 0), 1) : 1 }
        case (.in, .predictedTargetProb(let prediction)) where prediction.objID > 0:
            let certainty = 1 - Double(prediction.errorProbability)
            leading = (Int(prediction.objID), certainty.isFinite ? min(max(certainty, 0), 1) : 0)
        case (.out, .newTarget):
            leading = nil
        case (.out, .modeChange(let change)) where change.newMode.hasPrefix("Calibration"):
            // Calibration goes on (after a pause, whose idle had the decoder fit on the trials so far): that fit is void.
            markCalibrationStart()
        default:
            break
        }
    }

    /// Starts a new calibration: forgets its lines, failure and thresholds so far.
    public func markCalibrationStart() {
        calibrationLines = []
        thresholds = []
        calibrationResult = nil
    }

    /// The cross-validated accuracy (0…1) of the latest calibration, from
    /// its CALIBRATIONRESULT; nil before, or when the decoder measured none.
    public var calibrationAccuracy: Double? {
        guard let accuracy = calibrationResult?.accuracy, accuracy.isFinite else { return nil }
        return Double(accuracy)
    }

    /// The latest calibration's LOG lines worth showing: fit, accuracy, curve, threshold.
    public var calibrationSummary: [String] {
        calibrationLines.filter { line in
            ["calibration:", "cross-validated", "decoding curve", "recommended", "calibration failed", "no model",
             "cross-validation"].contains { line.contains($0) }
        }.map { $0.hasPrefix("decoder: ") ? String($0.dropFirst(9)) : $0 }
    }
}
