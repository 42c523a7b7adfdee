/// The trial in progress. Its controls and their actions are fixed when it
/// starts and never change until it ends. Owned by the engine thread.
final class Trial {
    let number: Int
    let mode: NoiseTagMode
    let startTime: Double
    /// Int32 wire timestamp of the start; older predictions are ignored.
    let startStamp: Int32
    let entries: [FlickerEntry]
    let target: FlickerEntry?
    /// Flicker duration after which the trial ends; nil for no limit.
    let flickerLimit: Double?
    let requiredCertainty: Double
    var phase: TrialPhase
    var phaseStart: Double
    var flickerStart: Double?
    /// The latest PREDICTEDTARGETPROB of this trial: object ID and certainty.
    var latestPrediction: (objectID: Int, certainty: Double)?
    /// The latest PREDICTEDTARGETDIST of this trial: probability by object ID.
    var distribution: [Int: Double] = [:]

    init(number: Int, mode: NoiseTagMode, startTime: Double, startStamp: Int32,
         entries: [FlickerEntry], target: FlickerEntry?, flickerLimit: Double?,
         requiredCertainty: Double, firstPhase: TrialPhase) {
        self.number = number
        self.mode = mode
        self.startTime = startTime
        self.startStamp = startStamp
        self.entries = entries
        self.target = target
        self.flickerLimit = flickerLimit
        self.requiredCertainty = requiredCertainty
        self.phase = firstPhase
        self.phaseStart = startTime
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
