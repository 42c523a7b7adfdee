/// Samples accepted by an ``AcquisitionStream``: channels × samples, finite,
/// with the wire time of each sample.
public struct SampleBlock: Equatable, Sendable {
    /// Channels × samples.
    public var samples: [[Double]]
    /// Wire time (ms, unwrapped) of each sample.
    public var times: [Double]
}
