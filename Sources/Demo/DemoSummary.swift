import Decoding
import Foundation

/// What a demo run achieved, for the headless summary and the tests:
/// calibration accuracy and threshold as the decoder reported them, the
/// Test trials, the brain presses and how many hit what the user meant,
/// the typed text, missed frames and the mean selection time.
///
/// ```swift
/// let summary = scenario.summary(missedFrames: loop.missedFrames)
/// print(summary.lines.joined(separator: "\n"))
/// exit(summary.reachedAccuracy(0.9) ? 0 : 1)
/// ```
public struct DemoSummary: Equatable, Sendable {
    /// Cross-validated calibration accuracy (0…1) from the decoder's LOG, nil when not reported.
    public var calibrationAccuracy: Double?
    /// The certainty required for a press after calibration.
    public var threshold: Double
    /// Whether that threshold came from the decoder (CERTAINTYTHRESHOLD).
    public var thresholdFromDecoder: Bool
    /// Test trials that ended (not counting trials stopped by the demo).
    public var testTrials = 0
    /// Brain presses in Test.
    public var brainPresses = 0
    /// Brain presses made while the simulated user's intention was known.
    public var judgedPresses = 0
    /// Of those, presses on the control the user looked at.
    public var correctPresses = 0
    /// Touch presses.
    public var touchPresses = 0
    /// Test trials that ended without a press.
    public var trialsWithoutPress = 0
    /// The text typed.
    public var typed = ""
    /// The text confirmed with the popup, nil before.
    public var sent: String?
    /// Frames missed.
    public var missedFrames = 0
    /// Mean time from trial start to brain press, s (nil without presses).
    public var meanSelectionTime: Double?
    /// Seconds from the end of the signal check to the goal's last letter
    /// (calibration, fitting and results included), nil before it is typed.
    public var secondsToGoal: Double?
    /// Revisions the decoder announced (zero training: "trial 3 was probably X").
    public var revisions = 0
    /// True when the run typed without a calibration (ZeroTrain, then Test):
    /// the accuracy is then the interim fits' on the learned trials.
    public var zeroTraining = false

    /// Share of judged brain presses that were right, nil when none was judged.
    public var correctShare: Double? { judgedPresses > 0 ? Double(correctPresses) / Double(judgedPresses) : nil }

    /// True when the judged presses were at least `share` right (and there was one).
    public func reachedAccuracy(_ share: Double) -> Bool { (correctShare ?? 0) >= share }

    /// The summary as lines of text.
    public var lines: [String] {
        func f(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
        return [
            "calibration accuracy: " + (calibrationAccuracy.map {
                "\(Int(($0 * 100).rounded())) % (cross-validated\(zeroTraining ? " on the trials learned without labels" : ""))"
            } ?? "not reported"),
            "certainty required for a press: \(CertaintyText.format(threshold))" + (thresholdFromDecoder ? " (recommended by the decoder)" : " (setting)"),
            (zeroTraining ? "typing trials (ZeroTrain, then Test): " : "test trials: ") + "\(testTrials) (\(trialsWithoutPress) without a press)",
            "brain presses: \(brainPresses), correct \(correctPresses) of \(judgedPresses)"
                + (correctShare.map { " (\(Int(($0 * 100).rounded())) %)" } ?? ""),
            "touch presses: \(touchPresses)",
            "typed: \"\(typed)\"" + (sent.map { $0 == typed ? " (confirmed)" : " (sent \"\($0)\")" } ?? " (not confirmed)"),
            "missed frames: \(missedFrames)",
            "mean selection time: " + (meanSelectionTime.map { "\(f($0, 2)) s" } ?? "no brain press"),
            "time to the last letter: " + (secondsToGoal.map { "\(f($0, 1)) s after the signal check" } ?? "not typed"),
            "revised selections: \(revisions)",
        ]
    }
}
