/// The continuous recording a trials dataset was cut from, so that filters
/// run over the whole signal and never start afresh at a trial's first
/// sample (`continuous.f32` and `onsets.i32` in `Protocols/dataset.md`).
public struct ContinuousContext: Equatable, Sendable {
    /// Channels × samples, channel-major (`samples[c * length + i]`), raw.
    public let samples: [Float]
    /// Samples per channel.
    public let length: Int
    /// For each trial, the index in the recording of its sample 0.
    public let onsets: [Int]

    /// A context of `channels` rows of `length` samples; onsets must leave
    /// room for a whole trial of `trialSamples` (checked by ``TrialsDataset``).
    public init(samples: [Float], length: Int, onsets: [Int]) {
        self.samples = samples
        self.length = length
        self.onsets = onsets
    }

    /// Channel `c` as doubles.
    public func channel(_ c: Int) -> [Double] {
        samples[(c * length)..<((c + 1) * length)].map(Double.init)
    }
}
