import Foundation
import Decoding
import JSONSupport

/// What a ``RecordingPlayback`` measured: each prediction trial's target,
/// press and time to the press, the totals, the certainty it pressed at
/// and the decoder's LOG lines about its calibration. Encodes to the JSON
/// `noisetag decoder stream --json` prints.
///
/// ```swift
/// let report = try RecordingPlayer.run(&playback, endpoint: endpoint)
/// print(report.summary)
/// let json = try JSONEncoder().encode(report)
/// ```
public struct PlaybackReport: Codable, Sendable, Equatable {
    /// One prediction trial.
    public struct Trial: Codable, Sendable, Equatable {
        /// The dataset's trial number, from 1.
        public var trial: Int
        /// The object looked at (class + 1).
        public var target: Int
        /// The object pressed, nil when no prediction reached the certainty.
        @NullWhenAbsent public var pressed: Int?
        /// Seconds of the trial's stimulation before the press.
        @NullWhenAbsent public var seconds: Double?
        /// Predictions the decoder sent during the trial.
        public var predictions: Int
        /// The object of the trial's last prediction, if any.
        @NullWhenAbsent public var finalPrediction: Int?
        /// The certainty (1 − Perr) of the trial's last prediction, if any.
        @NullWhenAbsent public var finalCertainty: Double?
        /// The certainty a press needed in this trial: the threshold in force
        /// at its first prediction (a refit's applies from the next trial).
        @NullWhenAbsent public var threshold: Double?

        /// The trial's line: `trial 7: target object 3, pressed 3 after 1.20 s (correct)`.
        public var line: String {
            var text = "trial \(trial): target object \(target), "
            if let pressed, let seconds {
                text += "pressed \(pressed) after \(String(format: "%.2f", seconds)) s (\(pressed == target ? "correct" : "wrong"))"
            } else {
                text += "no press"
                if let finalPrediction, let finalCertainty {
                    text += " (last prediction \(finalPrediction) at certainty \(CertaintyText.format(finalCertainty))"
                    text += threshold.map { ", below the \(CertaintyText.format($0)) this trial needed)" } ?? ")"
                } else {
                    text += " (no prediction)"
                }
            }
            return text
        }
    }

    /// Trials in the recording.
    public var trials = 0
    /// The dataset's numbers (from 1) of the trials played as calibration.
    public var calibrationTrials: [Int] = []
    /// The trials played as prediction trials, in the order played.
    public var predictionTrials: [Trial] = []
    /// The certainty a press needed at the end (each trial's is its ``Trial/threshold``).
    public var certainty: Double?
    /// Where it came from: "decoder" (its CERTAINTYTHRESHOLD) or "--certainty".
    public var certaintySource = "decoder"
    /// The decoder's recommended threshold, when it sent one.
    public var decoderThreshold: Double?
    /// The decoder's LOG lines about calibration (choice, latency, cross-validated accuracy, curve, threshold).
    public var calibrationLog: [String] = []
    /// How many times the recording's pace it was streamed at.
    public var speed = 1.0

    /// Prediction trials with a press.
    public var presses: Int { predictionTrials.filter { $0.pressed != nil }.count }
    /// Presses of the target.
    public var correct: Int { predictionTrials.filter { $0.pressed != nil && $0.pressed == $0.target }.count }
    /// Prediction trials without a press.
    public var withoutPress: Int { predictionTrials.count - presses }
    /// Correct presses over presses; nil without a press.
    public var accuracy: Double? { presses > 0 ? Double(correct) / Double(presses) : nil }
    /// Mean seconds to a press; nil without a press.
    public var meanSelectionSeconds: Double? {
        let times = predictionTrials.compactMap(\.seconds)
        return times.isEmpty ? nil : times.reduce(0, +) / Double(times.count)
    }

    /// An empty report.
    public init() {}

    /// The totals as one line: `5 prediction trials: 4 presses, 4 correct (accuracy 100 % among presses), …`.
    public var summary: String {
        let accuracyText = accuracy.map { String(format: "%.0f %%", $0 * 100) } ?? "n/a"
        let meanText = meanSelectionSeconds.map { String(format: "%.2f s", $0) } ?? "n/a"
        return "\(CountText.format(predictionTrials.count, "prediction trial")) after \(CountText.format(calibrationTrials.count, "calibration trial")): "
            + "\(CountText.format(presses, "press")), \(correct) correct (accuracy \(accuracyText) among presses), "
            + "\(withoutPress) without press; mean selection time \(meanText)"
    }

    private enum CodingKeys: String, CodingKey {
        case trials, calibrationTrials, predictionTrials, certainty, certaintySource, decoderThreshold, calibrationLog, speed
    }

    /// The totals the JSON carries after the fields; decoding recomputes them.
    private struct Totals: Encodable {
        var presses: Int
        var correct: Int
        @NullWhenAbsent var accuracy: Double?
        var withoutPress: Int
        @NullWhenAbsent var meanSelectionSeconds: Double?
    }

    /// Encodes the fields (an unknown certainty or threshold as null) and the totals.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(trials, forKey: .trials)
        try c.encode(calibrationTrials, forKey: .calibrationTrials)
        try c.encode(predictionTrials, forKey: .predictionTrials)
        try c.encode(certainty, forKey: .certainty)
        try c.encode(certaintySource, forKey: .certaintySource)
        try c.encode(decoderThreshold, forKey: .decoderThreshold)
        try c.encode(calibrationLog, forKey: .calibrationLog)
        try c.encode(speed, forKey: .speed)
        try Totals(presses: presses, correct: correct, accuracy: accuracy, withoutPress: withoutPress,
                   meanSelectionSeconds: meanSelectionSeconds).encode(to: encoder)
    }
}
