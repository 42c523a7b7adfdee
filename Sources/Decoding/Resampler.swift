import Foundation

/// Streaming resampling between any two rates (e.g. an amplifier's 256 Hz to
/// the decoder's 250 Hz): when the rate goes down, an 8th-order Butterworth
/// anti-alias low-pass at 80 % of the new Nyquist frequency; then cubic
/// (Catmull–Rom) interpolation at the output sample times. Output sample k
/// lies at `k / outputRate` seconds after the first input sample. State is
/// carried across chunks, so chunked and one-shot resampling agree.
/// For integer factors, ``Downsampler`` is cheaper.
public struct Resampler: Sendable {
    /// Input samples per second.
    public let inputRate: Double
    /// Output samples per second.
    public let outputRate: Double
    private var antiAlias: SOSFilter?
    private var history: [[Double]]
    private var historyStart = 0
    private var received = 0
    private var produced = 0

    /// A resampler from `inputRate` to `outputRate`.
    public init(from inputRate: Double, to outputRate: Double, channels: Int) {
        precondition(inputRate > 0 && outputRate > 0 && inputRate.isFinite && outputRate.isFinite, "rates are positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        antiAlias = outputRate < inputRate
            ? .lowPass(frequency: 0.8 * outputRate / 2, order: 8, sampleRate: inputRate, channels: channels)
            : nil
        history = [[Double]](repeating: [], count: channels)
    }

    /// Resamples one chunk (channels × samples); returns the output samples
    /// whose neighbours have arrived (interpolation looks two samples ahead).
    public mutating func process(_ chunk: [[Double]]) -> [[Double]] {
        precondition(chunk.count == history.count, "one row per channel")
        let filtered = antiAlias.map { filter -> [[Double]] in
            var f = filter
            let out = f.process(chunk)
            antiAlias = f
            return out
        } ?? chunk
        for c in history.indices { history[c] += filtered[c] }
        received += chunk.first?.count ?? 0
        let step = inputRate / outputRate
        var out = [[Double]](repeating: [], count: history.count)
        while true {
            let position = Double(produced) * step
            let i = Int(position.rounded(.down))
            guard i + 2 < received else { break }
            let t = position - Double(i)
            for c in history.indices {
                func x(_ k: Int) -> Double { history[c][max(0, k) - historyStart] }
                let p0 = x(i - 1), p1 = x(i), p2 = x(i + 1), p3 = x(i + 2)
                let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
                let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
                let cc = -0.5 * p0 + 0.5 * p2
                out[c].append(((a * t + b) * t + cc) * t + p1)
            }
            produced += 1
        }
        // Keep what the next output still needs: from one sample before its position.
        let keepFrom = max(0, Int((Double(produced) * step).rounded(.down)) - 1)
        if keepFrom > historyStart {
            let drop = min(keepFrom - historyStart, history.first?.count ?? 0)
            for c in history.indices { history[c].removeFirst(drop) }
            historyStart += drop
        }
        return out
    }
}
