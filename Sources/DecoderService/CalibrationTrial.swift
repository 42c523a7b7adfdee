/// A finished calibration trial: raw EEG from its first STIMULUSEVENT to one
/// frame after its last, the same samples as the live filter gave them, and
/// each object's stimulus state at each sample.
struct CalibrationTrial: Sendable {
    /// Channels × samples, raw.
    let eeg: [[Double]]
    /// Per band (by its low-pass edge, nil for none), channels × samples,
    /// preprocessed by the filter that runs continuously for scoring (no
    /// transient at the trial's start).
    let filtered: [Double?: [[Double]]]
    /// The objects of the trial's STIMULUSEVENTs; 0 is the cued target.
    let objectIDs: [UInt8]
    /// Objects × samples.
    let states: [[UInt8]]

    var sampleCount: Int { eeg.first?.count ?? 0 }
}
