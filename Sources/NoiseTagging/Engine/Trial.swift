/// The trial in progress. Its controls and their actions are fixed when it
/// starts and never change until it ends. Owned by the engine thread.
final class Trial {
    let number: Int
    let mode: NoiseTagMode
    let startTime: Double
    /// Int32 wire timestamp of the start; older predictions are ignored.
    let startStamp: Int32
    let entries: [FlickerEntry]
    /// Per entry, the index of its code in the controller's codebook.
    let codeIndices: [Int]
    /// The cyclic shift of every code (training with `randomlyTranslateNoiseTagsInTraining`).
    let codeShift: Int?
    let target: FlickerEntry?
    /// Flicker duration after which the trial ends; nil for no limit.
    let flickerLimit: Double?
    /// The certainty a prediction needs to press. Set when the trial starts;
    /// a decoder threshold adopted before the trial's first prediction
    /// replaces it (the model that recommends it is the one that scores the trial).
    var requiredCertainty: Double
    var phase: TrialPhase
    var phaseStart: Double
    /// When the cue and pause phases began (training and Verify).
    var cueStart: Double?
    var pauseStart: Double?
    var flickerStart: Double?
    /// The latest PREDICTEDTARGETPROB of this trial: object ID and certainty.
    var latestPrediction: (objectID: Int, certainty: Double)?
    /// The latest PREDICTEDTARGETDIST of this trial: probability by object ID.
    var distribution: [Int: Double] = [:]
    /// Whether a PREDICTEDTARGETPROB or DIST this trial could not take was reported.
    var reportedPredictionProblem = false

    init(number: Int, mode: NoiseTagMode, startTime: Double, startStamp: Int32,
         entries: [FlickerEntry], codeIndices: [Int], codeShift: Int?, target: FlickerEntry?,
         flickerLimit: Double?, requiredCertainty: Double, firstPhase: TrialPhase) {
        self.number = number
        self.mode = mode
        self.startTime = startTime
        self.startStamp = startStamp
        self.entries = entries
        self.codeIndices = codeIndices
        self.codeShift = codeShift
        self.target = target
        self.flickerLimit = flickerLimit
        self.requiredCertainty = requiredCertainty
        self.phase = firstPhase
        self.phaseStart = startTime
        if firstPhase == .cue { cueStart = startTime }
    }

    /// The object IDs of this trial's STIMULUSEVENTs, in order: 0 first
    /// when the cued target's own state rides along (training and Verify),
    /// then each entry's.
    var stimulusObjectIDs: [Int] {
        (sendsTargetState ? [0] : []) + entries.map(\.objectID)
    }

    /// Whether object 0 carries the cued target's state: in every trial
    /// that cues one (training, and Verify as the MindAffect SDK's cued
    /// prediction does), so a decoder can score its predictions and a
    /// simulated user knows where to look.
    var sendsTargetState: Bool { mode.cuesTarget && target != nil }

    /// The trial as `trials.jsonl` keeps it, ended at `end` with `ending`
    /// (times on the engine clock; the recorder adds wall-clock times).
    func record(ending: TrialEnding, pressed: FlickerEntry?, certainty: Double?, at end: Double) -> RecordedTrial {
        var record = RecordedTrial(
            trial: number, mode: mode.rawValue, startTime: startTime, startWallTime: 0,
            endTime: end, endWallTime: 0, ending: ending.description,
            target: target?.control.noiseTagName, targetObjectID: target?.objectID,
            controls: entries.map { $0.control.noiseTagName },
            objectIDs: flickerStart == nil ? [] : stimulusObjectIDs, codeShift: codeShift)
        record.cueTime = cueStart
        record.pauseTime = pauseStart
        record.flickerTime = flickerStart
        if !mode.isTraining { record.requiredCertainty = requiredCertainty }
        if let pressed {
            record.pressed = pressed.control.noiseTagName
            record.pressedObjectID = pressed.objectID == 0 ? nil : pressed.objectID
            if case .pressed(let source) = ending { record.source = source.rawValue }
            record.certainty = certainty
        }
        return record
    }

    /// True in the flicker phase when `advanceTrial` has nothing to do at
    /// `now`: no prediction to act on and the time limit not reached.
    func isQuietFlicker(at now: Double) -> Bool {
        guard phase == .flicker, let flickerStart else { return false }
        if latestPrediction != nil, !mode.isTraining { return false }
        guard let flickerLimit else { return true }
        return now - flickerStart < flickerLimit
    }

    func entry(objectID: Int) -> FlickerEntry? { entries.first { $0.objectID == objectID } }

    func entry(for control: any NoiseTagControl) -> FlickerEntry? { entries.first { $0.control === control } }

    /// The most likely control: the highest distribution entry, else the latest prediction.
    var mostLikely: (entry: FlickerEntry, certainty: Double)? {
        if let best = distribution.max(by: { $0.value < $1.value }), let entry = entry(objectID: best.key) {
            return (entry, best.value)
        }
        if let latest = latestPrediction, let entry = entry(objectID: latest.objectID) {
            return (entry, latest.certainty)
        }
        return nil
    }
}
