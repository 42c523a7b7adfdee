/// Streaming integer-factor resampling: an 8th-order Butterworth anti-alias
/// low-pass at 80 % of the new Nyquist frequency, then every `factor`-th
/// sample. The phase is carried across chunks, so chunked and one-shot
/// resampling agree.
public struct Downsampler: Sendable {
    /// Input samples per output sample.
    public let factor: Int
    /// The output sample rate.
    public let outputSampleRate: Double
    private var antiAlias: SOSFilter
    private var phase = 0

    /// A resampler from `sampleRate` to `sampleRate / factor`.
    public init(factor: Int, sampleRate: Double, channels: Int) {
        precondition(factor >= 1, "the factor is a positive integer")
        self.factor = factor
        self.outputSampleRate = sampleRate / Double(factor)
        self.antiAlias = factor == 1
            ? SOSFilter(sections: [], channels: channels)
            : .lowPass(frequency: 0.8 * sampleRate / Double(2 * factor), order: 8, sampleRate: sampleRate, channels: channels)
    }

    /// Resamples one chunk (channels × samples).
    public mutating func process(_ chunk: [[Double]]) -> [[Double]] {
        let filtered = antiAlias.process(chunk)
        let n = chunk.first?.count ?? 0
        var keep: [Int] = []
        var i = (factor - phase) % factor
        while i < n { keep.append(i); i += factor }
        phase = (phase + n) % factor
        return filtered.map { row in keep.map { row[$0] } }
    }
}
