/// A prediction trial cut out of the EEG once it ended, for the decoder to
/// learn from (zero training, adaptation): its samples from its first
/// STIMULUSEVENT to one frame after its last, the objects on screen (object
/// 0 left out) and their states at each sample.
struct FinishedPrediction: Sendable {
    /// The timestamp of the NEWTARGET that opened it.
    let newTargetStamp: Int32
    /// Channels × samples, as received (µV).
    let eeg: [[Double]]
    /// Per band (by its low-pass edge, nil for none), channels × samples, through the live filter.
    let filtered: [Double?: [[Double]]]
    /// The objects on screen.
    let objectIDs: [UInt8]
    /// Each object's stimulus state per sample.
    let states: [[UInt8]]

    var sampleCount: Int { eeg.first?.count ?? 0 }

    /// The trial as a calibration trial cued on `object` (one of its
    /// objects): what supervised learning from an unlabelled trial needs.
    func labelled(_ object: UInt8) -> CalibrationTrial? {
        guard let index = objectIDs.firstIndex(of: object) else { return nil }
        return CalibrationTrial(eeg: eeg, filtered: filtered, objectIDs: [0] + objectIDs, states: [states[index]] + states)
    }
}
