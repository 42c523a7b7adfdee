import Simulation
@testable import Decoding

/// A simulated recording as a decoder is fitted on it and scored against it:
/// each trial preprocessed, with its class and every class's code.
struct PreprocessedSimulation {
    /// Each trial preprocessed, as channels × samples.
    var trials: [[[Double]]]
    /// Each trial's class (the cued target, 0-based).
    var labels: [Int]
    /// Each class's stimulus state per sample.
    var codes: [[UInt8]]
    /// Samples per second.
    var fs: Double
    /// The simulated subject whose responses the recording holds.
    var subject: SimulatedSubject

    /// Records `simulation` and preprocesses every trial.
    init(recording simulation: DatasetSimulation) throws {
        let dataset = try simulation.record()
        let pre = Preprocessor(sampleRate: dataset.header.fs, channels: dataset.header.nChannels)
        trials = (0..<dataset.header.nTrials).map { pre.apply(toTrial: dataset.trial($0)) }
        labels = dataset.labels.map(Int.init)
        codes = (0..<simulation.classes).map { dataset.stimulus(ofClass: $0) }
        fs = dataset.header.fs
        subject = simulation.subject
    }
}
