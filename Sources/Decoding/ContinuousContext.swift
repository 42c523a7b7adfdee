/// The continuous recording a trials dataset was cut from, so that filters
/// run over the whole signal and never start afresh at a trial's first
/// sample (`continuous.f32` and `onsets.i32` in `Protocols/dataset.md`).
public struct ContinuousContext: Equatable, Sendable {
    /// Channels × samples, channel-major (`samples[c * length + i]`), raw.
    public let samples: [Float]
    /// Samples per channel.
    public let length: Int
    /// For each trial, the index in the recording of its sample 0; each
    /// leaves room for a whole trial (checked by ``TrialsDataset``).
    public let onsets: [Int]

    /// Channel `c` as doubles.
    public func channel(_ c: Int) -> [Double] {
        samples[(c * length)..<((c + 1) * length)].map(Double.init)
    }
}
