import Foundation
import UtopiaProtocol

/// One row of an exported `*_events.tsv`. Its onset is its ``sample``
/// divided by the rate: every event sits on the first EEG sample at or after
/// the engine time it happened (the decoder's own rule for a trial's sample
/// 0), so `round(onset × rate)` gives the sample back exactly.
///
/// The `trial_type` vocabulary (Protocols/recordings-bids.md):
///
/// | trial_type | when |
/// | --- | --- |
/// | `trial` | a trial's flicker start (its first STIMULUSEVENT); duration to one frame after its last |
/// | `target=K` | the same onset and duration, for a trial with a cued target: object K |
/// | `cue` | a training or Verify trial's cue; duration to its pause |
/// | `press/brain`, `press/touch`, `press/timeout` | a press (`presses.csv`) |
/// | `mode/<mode>` | a MODECHANGE the decoder received (`mode/Calibration.supervised`, …) |
/// | `step_start/<kind>`, `step_end/<kind>` | a session step's boundaries |
/// | `BAD_gap` | samples filled in where the EEG stopped |
/// | `BAD_nonfinite` | samples that were NaN or infinite (written as the channel's minimum) |
///
/// ```swift
/// let event = BIDSEvent(sample: 500, samples: 1046, trialType: "trial")
/// event.cells(sampleRate: 250, value: 1, columns: BIDSEvent.columns(steps: false))
/// // ["2.000000", "4.184000", "trial", "1", "500", "n/a", …]
/// ```
public struct BIDSEvent: Sendable, Equatable {
    /// The first EEG sample at or after the event (0-based).
    public var sample: Int
    /// Its length in samples (0 for an instant).
    public var samples: Int
    /// The event's kind (see the table above).
    public var trialType: String
    /// The trial number (since the engine started).
    public var trial: Int?
    /// The engine's mode for the trial (`TrainGeneric`, `Test`, …).
    public var mode: String?
    /// The cued target's object ID.
    public var target: Int?
    /// The pressed object's ID.
    public var pressed: Int?
    /// The pressed control's identifier.
    public var control: String?
    /// How the trial ended (`completed`, `pressed-brain`, …).
    public var ending: String?
    /// 1 − Perr of the deciding prediction.
    public var certainty: Double?
    /// In a session, the engine recording folder the trial or press comes
    /// from, numbered from 1 in time order (trial numbers start again in
    /// a resumed session's new engine).
    public var recording: Int?
    /// The session step's number, name and outcome.
    public var step: Int?
    /// See ``step``.
    public var stepName: String?
    /// See ``step``.
    public var outcome: String?

    /// An event of `trialType` at `sample` lasting `samples`.
    public init(sample: Int, samples: Int = 0, trialType: String) {
        self.sample = sample
        self.samples = samples
        self.trialType = trialType
    }

    /// The columns written: the step columns only for a session.
    public static func columns(steps: Bool) -> [String] {
        ["onset", "duration", "trial_type", "value", "sample", "trial", "mode", "target", "pressed", "control", "ending", "certainty"]
            + (steps ? ["recording", "step", "step_name", "outcome"] : [])
    }

    /// The row's cells for `columns`; `value` is the trial_type's code.
    public func cells(sampleRate: Double, value: Int, columns: [String]) -> [String] {
        func text(_ v: String?) -> String {
            guard let v, !v.isEmpty else { return "n/a" }
            return String(v.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
        }
        return columns.map { column in
            switch column {
            case "onset": return String(format: "%.6f", Double(sample) / sampleRate)
            case "duration": return String(format: "%.6f", Double(samples) / sampleRate)
            case "trial_type": return text(trialType)
            case "value": return String(value)
            case "sample": return String(sample)
            case "trial": return text(trial.map(String.init))
            case "mode": return text(mode)
            case "target": return text(target.map(String.init))
            case "pressed": return text(pressed.map(String.init))
            case "control": return text(control)
            case "ending": return text(ending)
            case "certainty": return text(certainty.map { String(format: "%.6f", $0) })
            case "recording": return text(recording.map(String.init))
            case "step": return text(step.map(String.init))
            case "step_name": return text(stepName)
            case "outcome": return text(outcome)
            default: return "n/a"
            }
        }
    }

    /// An integer code per trial_type, one to one (MNE-BIDS takes `value` as
    /// the event id), the same in every export: `trial` 1, `cue` 2,
    /// `press/brain` 11, `press/touch` 12, `press/timeout` 13 (other sources
    /// from 14), `BAD_gap` 91, `BAD_nonfinite` 92, `mode/…` from 201 in the
    /// order of ``knownModes``, `step_start/…` from 301 in the order of
    /// ``StepResult/kinds`` (a kind's end has its start's code + 100),
    /// `target=K` 1000 + K; a mode or step kind not listed takes the next
    /// code after the listed ones, in order of first appearance.
    public static func codes(for types: [String]) -> [String: Int] {
        var codes: [String: Int] = ["trial": 1, "cue": 2, "press/brain": 11, "press/touch": 12, "press/timeout": 13,
                                    "BAD_gap": 91, "BAD_nonfinite": 92]
        var press = 14, mode = 201 + knownModes.count, step = 301 + StepResult.kinds.count
        for type in types where codes[type] == nil {
            if type.hasPrefix("target="), let k = Int(type.dropFirst(7)) {
                codes[type] = 1000 + k
            } else if type.hasPrefix("press/") {
                codes[type] = press; press += 1
            } else if type.hasPrefix("mode/") {
                codes[type] = knownModes.firstIndex(of: String(type.dropFirst(5))).map { 201 + $0 } ?? { defer { mode += 1 }; return mode }()
            } else if type.hasPrefix("step_start/") || type.hasPrefix("step_end/") {
                let kind = type.hasPrefix("step_start/") ? String(type.dropFirst(11)) : String(type.dropFirst(9))
                let start = codes["step_start/" + kind] ?? StepResult.kinds.firstIndex(of: kind).map { 301 + $0 }
                    ?? { defer { step += 1 }; return step }()
                codes["step_start/" + kind] = start
                codes["step_end/" + kind] = start + 100
            } else {
                codes[type] = 900 + codes.count
            }
        }
        return codes.filter { types.contains($0.key) }
    }

    /// The decoder modes the engine sends, in the order of their `mode/…`
    /// codes (201, 202, …).
    public static let knownModes = [DecoderMode.idle, .calibration, .prediction, .electrodeMeasurement, .reset].map(\.modeText)

    /// What a trial_type means, for the events sidecar's Levels.
    public static func meaning(of type: String) -> String {
        switch type {
        case "trial": return "A trial's flicker start: its first STIMULUSEVENT (the decoder's sample 0 of the trial); duration to one 60 Hz frame after its last STIMULUSEVENT."
        case "cue": return "A training or Verify trial's cue (the target shown); duration to the pause before the flicker."
        case "BAD_gap": return "The EEG stopped: these samples were filled by linear interpolation."
        case "BAD_nonfinite": return "Samples that were NaN or infinite, written as the channel's physical minimum."
        default: break
        }
        if type.hasPrefix("target=") { return "Same onset and duration as the trial: its cued target was object \(type.dropFirst(7)) (column obj_\(type.dropFirst(7)) of the stimulus file)." }
        if type.hasPrefix("press/") { return "A press by \(type.dropFirst(6)) (presses.csv): pressed is the object, target the cued one." }
        if type.hasPrefix("mode/") { return "The decoder received MODECHANGE \(type.dropFirst(5))." }
        if type.hasPrefix("step_start/") { return "A session step of kind \(type.dropFirst(11)) started (steps.jsonl)." }
        if type.hasPrefix("step_end/") { return "A session step of kind \(type.dropFirst(9)) ended (steps.jsonl)." }
        return type
    }
}
