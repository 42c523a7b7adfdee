/// One line of `trials.jsonl`: a trial as a recording keeps it, written when
/// the trial ends. Times are engine-clock seconds (`*_time`) and Unix seconds
/// (`*_wall_time`); absent fields are unknown or do not apply.
public struct RecordedTrial: Codable, Equatable, Sendable {
    /// Trial number since the engine started.
    public var trial: Int
    /// The mode it ran in (`TrainGeneric`, `Test`, …).
    public var mode: String
    /// When it started (engine clock).
    public var startTime: Double
    /// When it started (Unix seconds).
    public var startWallTime: Double
    /// When the cue, pause and flicker phases began (training and Verify have all three).
    public var cueTime: Double?
    public var pauseTime: Double?
    public var flickerTime: Double?
    /// When it ended (engine clock).
    public var endTime: Double
    /// When it ended (Unix seconds).
    public var endWallTime: Double
    /// `pressed-brain`, `pressed-touch`, `pressed-timeout`, `noPress`, `completed`, `stopped-<cause>`.
    public var ending: String
    /// The cued target's identifier and object ID (training and Verify).
    public var target: String?
    public var targetObjectID: Int?
    /// The pressed control, its object ID, the press source and certainty.
    public var pressed: String?
    public var pressedObjectID: Int?
    public var source: String?
    public var certainty: Double?
    /// The certainty a brain press needed (prediction trials): the threshold
    /// in force at the trial's first prediction, else at its start.
    public var requiredCertainty: Double?
    /// Identifiers of the flickering controls, in object-ID order.
    public var controls: [String]
    /// Object IDs in the order of the `states` of `frames.csv` (0 first in
    /// training: the target's state); empty when the trial never flickered.
    public var objectIDs: [Int]
    /// The cyclic code shift of a training trial.
    public var codeShift: Int?

    enum CodingKeys: String, CodingKey {
        case trial, mode, ending, target, pressed, source, certainty, controls
        case startTime = "start_time", startWallTime = "start_wall_time"
        case cueTime = "cue_time", pauseTime = "pause_time", flickerTime = "flicker_time"
        case endTime = "end_time", endWallTime = "end_wall_time"
        case targetObjectID = "target_object_id", pressedObjectID = "pressed_object_id"
        case objectIDs = "object_ids", codeShift = "code_shift", requiredCertainty = "required_certainty"
    }
}
