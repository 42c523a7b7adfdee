/// Samples accepted by an ``AcquisitionStream``: channels × samples, finite,
/// with the wire time of each sample.
///
/// ```swift
/// if let block = stream.receive(packet) { scorer.append(filter.process(block.samples)) }
/// ```
public struct SampleBlock: Equatable, Sendable {
    /// Channels × samples.
    public var samples: [[Double]]
    /// Wire time (ms, unwrapped) of each sample.
    public var times: [Double]

    /// A block from its parts.
    ///
    /// ```swift
    /// let block = SampleBlock(samples: [[1, 2]], times: [0, 4])
    /// ```
    public init(samples: [[Double]], times: [Double]) {
        self.samples = samples
        self.times = times
    }
}
