import Decoding

/// Totals over a set of trial outcomes: what a what-if compares. Only
/// trials that could press count (Test, Verify, ZeroTrain, DataCollection:
/// training trials never press).
public struct OutcomeTotals: Equatable, Sendable {
    /// Trials that could press.
    public var trials = 0
    /// Trials that ended with a press (brain, touch or timeout).
    public var presses = 0
    /// Presses in trials whose target the engine knew (Verify).
    public var pressesWithKnownTarget = 0
    /// Of those, presses on the target.
    public var correctPresses = 0
    /// Mean seconds from trial start to the press.
    public var meanSelectionTime: Double?
    /// Mean number of flickering controls in the pressed trials.
    public var meanControls: Double?
    /// Seconds spent in the counted trials, pressed or not (an unfinished
    /// one: the logged trial's time, which it ran at least).
    public var trialSeconds = 0.0

    /// Adds up `outcomes`: each trial's comparison (for mode, target and controls) and the outcome to count.
    public init(_ outcomes: [(TrialComparison, TrialOutcome?)]) {
        var seconds = 0.0, controls = 0.0
        for (trial, outcome) in outcomes where !Self.isTraining(trial.mode) {
            trials += 1
            // A what-if trial left unfinished (the recording moved on while it ran) took at least the logged trial's time.
            trialSeconds += outcome?.duration ?? trial.logged.duration ?? 0
            guard let outcome, outcome.isPress else { continue }
            presses += 1
            seconds += outcome.duration ?? 0
            controls += Double(trial.controls)
            if let target = trial.target {
                pressesWithKnownTarget += 1
                if outcome.pressed == target { correctPresses += 1 }
            }
        }
        if presses > 0 {
            meanSelectionTime = seconds / Double(presses)
            meanControls = controls / Double(presses)
        }
    }

    static func isTraining(_ mode: String) -> Bool { mode.hasPrefix("Train") }

    /// Correct presses over presses with a known target (nil when none).
    public var accuracy: Double? {
        pressesWithKnownTarget > 0 ? Double(correctPresses) / Double(pressesWithKnownTarget) : nil
    }

    /// Estimated information transfer rate (Wolpaw), bits per minute: the
    /// mean number of controls as classes, ``accuracy``, and the trial time
    /// spent per press (trials that ended without one count as time spent).
    /// Nil without a known target or a press.
    public var bitsPerMinute: Double? {
        guard let accuracy, let meanControls, presses > 0, trialSeconds > 0 else { return nil }
        return InformationTransferRate.bitsPerMinute(classes: Int(meanControls.rounded()), accuracy: accuracy,
                                                     seconds: trialSeconds / Double(presses))
    }
}
