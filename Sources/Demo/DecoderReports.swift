import NoiseTagging
import UtopiaProtocol

/// What the decoder has told the engine, gathered from the engine's
/// decoder traffic for the screen: its LOG lines (the calibration's
/// accuracy and decoding curve), the thresholds it recommended, its latest
/// SIGNALQUALITY, and the leading object of the current trial with its
/// certainty. Works the same for the embedded and an external decoder.
///
/// ```swift
/// let reports = DecoderReports()
/// controller.observeDecoderTraffic { reports.hear($0) }
/// // … after calibration …
/// reports.calibrationAccuracy        // 0.9 from "cross-validated accuracy 90 % at 4.2 s …"
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
    /// True once a fit failed or produced no model (a LOG line says why).
    public private(set) var calibrationFailed = false

    /// Empty reports.
    ///
    /// ```swift
    /// let reports = DecoderReports()
    /// ```
    public init() {}

    /// Takes one message of decoder traffic.
    ///
    /// ```swift
    /// controller.observeDecoderTraffic { reports.hear($0) }
    /// ```
    public func hear(_ traffic: DecoderTraffic) {
        switch (traffic.direction, traffic.message) {
        case (.in, .log(let line)):
            calibrationLines.append(line.message)
            if line.message.contains("calibration failed") || line.message.contains("no model fitted") {
                calibrationFailed = true
            }
        case (.in, .certaintyThreshold(let advice)):
            thresholds.append(Double(advice.threshold))
        case (.in, .signalQuality(let quality)):
            signalQuality = quality.quality.map { $0.isFinite ? min(max(Double($0), 0), 1) : 1 }
        case (.in, .predictedTargetProb(let prediction)) where prediction.objID > 0:
            let certainty = 1 - Double(prediction.errorProbability)
            leading = (Int(prediction.objID), certainty.isFinite ? min(max(certainty, 0), 1) : 0)
        case (.out, .newTarget):
            leading = nil
        default:
            break
        }
    }

    /// Starts a new calibration: forgets its lines, failure and thresholds so far.
    ///
    /// ```swift
    /// reports.markCalibrationStart()     // on `r`
    /// ```
    public func markCalibrationStart() {
        calibrationLines = []
        thresholds = []
        calibrationFailed = false
    }

    /// The cross-validated accuracy (0…1) the decoder logged for the latest
    /// calibration ("cross-validated accuracy 90 % at 4.2 s"), nil before.
    ///
    /// ```swift
    /// if let accuracy = reports.calibrationAccuracy { show("accuracy \(Int(accuracy * 100)) %") }
    /// ```
    public var calibrationAccuracy: Double? {
        for line in calibrationLines.reversed() {
            guard let range = line.range(of: "cross-validated accuracy ") else { continue }
            let number = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            if let value = Double(number) { return value / 100 }
        }
        return nil
    }

    /// The latest calibration's LOG lines worth showing: fit, accuracy, curve, threshold.
    ///
    /// ```swift
    /// for line in reports.calibrationSummary { screen.write(line, …) }
    /// ```
    public var calibrationSummary: [String] {
        calibrationLines.filter { line in
            ["calibration:", "cross-validated", "decoding curve", "recommended", "calibration failed", "no model",
             "cross-validation"].contains { line.contains($0) }
        }.map { $0.hasPrefix("decoder: ") ? String($0.dropFirst(9)) : $0 }
    }
}
