/// A temporal whitening filter for the spatially filtered EEG: the
/// prediction-error filter of an autoregressive model of the background
/// activity, e[i] = x[i] − Σ a[j] x[i−j]. EEG background is strongly coloured
/// (1/f and alpha), and the correlation between a signal and a template is a
/// matched filter only when the noise is white; filtering both the EEG and
/// the templates with this filter makes it one again, so fewer samples tell
/// the codes apart. Fitted on the calibration residuals (the filtered EEG
/// minus the fitted template of the code the user looked at), so it whitens
/// the noise, not the visual response.
///
/// ```swift
/// let white = PredictionErrorFilter.fit(residuals: residualsPerTrial, order: 20)
/// let whitenedTemplate = white.apply(template)          // zero history: the stimulus was off before the trial
/// var state = white.makeState()
/// let whitenedChunk = white.apply(chunk, state: &state)  // streaming, chunk by chunk
/// ```
public struct PredictionErrorFilter: Sendable, Equatable, Codable {
    /// The filter's taps: 1, −a[1], …, −a[order].
    public let taps: [Double]

    /// The filter that changes nothing (order 0).
    public static let identity = PredictionErrorFilter(taps: [1])

    /// A filter with these taps; the first must be 1.
    public init(taps: [Double]) {
        precondition(taps.first == 1, "a prediction-error filter's first tap is 1")
        self.taps = taps
    }

    /// The model's order: how many past samples predict the next.
    public var order: Int { taps.count - 1 }

    /// Fits an order-`order` autoregressive model to the residual segments by
    /// the Yule–Walker equations (their pooled autocorrelation, each segment's
    /// lags counted within it), with a small ridge so that a flat or very
    /// short residual still gives a stable, nearly identity filter. A
    /// `floor` (a fraction of the variance, added as white noise to the
    /// autocorrelation) limits the gain in bands the signal hardly has: EEG
    /// low-passed upstream would otherwise have its empty upper band
    /// amplified by orders of magnitude.
    public static func fit(residuals: [[Double]], order: Int, floor: Double = 1e-6) -> PredictionErrorFilter {
        guard order > 0 else { return .identity }
        var r = [Double](repeating: 0, count: order + 1)
        for segment in residuals {
            let n = segment.count
            guard n > order else { continue }
            let mean = segment.reduce(0, +) / Double(n)
            let centred = segment.map { $0 - mean }
            // Four lags at a time, each summing its products in the order of i as one
            // lag alone would, but the four sums do not wait on each other.
            for first in stride(from: 0, through: order, by: 4) {
                let lags = min(4, order + 1 - first)
                var s = (0.0, 0.0, 0.0, 0.0)
                // The terms before every lag of the four has begun.
                for i in first..<min(n, first + lags - 1) {
                    s.0 += centred[i] * centred[i - first]
                    if lags > 1, i >= first + 1 { s.1 += centred[i] * centred[i - first - 1] }
                    if lags > 2, i >= first + 2 { s.2 += centred[i] * centred[i - first - 2] }
                }
                for i in (first + lags - 1)..<n {
                    let x = centred[i]
                    s.0 += x * centred[i - first]
                    if lags > 1 { s.1 += x * centred[i - first - 1] }
                    if lags > 2 { s.2 += x * centred[i - first - 2] }
                    if lags > 3 { s.3 += x * centred[i - first - 3] }
                }
                r[first] += s.0
                if lags > 1 { r[first + 1] += s.1 }
                if lags > 2 { r[first + 2] += s.2 }
                if lags > 3 { r[first + 3] += s.3 }
            }
        }
        guard r[0] > 0, r[0].isFinite else { return .identity }
        var toeplitz = Matrix(rows: order, columns: order)
        for i in 0..<order {
            for j in 0..<order { toeplitz[i, j] = r[abs(i - j)] }
            toeplitz[i, i] += floor * r[0]
        }
        guard let factor = try? CholeskyFactor(toeplitz) else { return .identity }
        let a = factor.solve(Matrix(rows: 1, columns: order, elements: Array(r[1...]))).elements
        guard a.allSatisfy(\.isFinite) else { return .identity }
        return PredictionErrorFilter(taps: [1] + a.map { -$0 })
    }

    /// The filter's running memory: the last `order` inputs, newest last.
    public func makeState() -> [Double] { [Double](repeating: 0, count: order) }

    /// Filters `signal` as if it were preceded by zeros.
    public func apply(_ signal: [Double]) -> [Double] {
        var state = makeState()
        return apply(signal, state: &state)
    }

    /// Filters the next piece of a stream, carrying `state` (from
    /// ``makeState()``) from one piece to the next.
    ///
    /// ```swift
    /// var state = white.makeState()
    /// let first = white.apply(chunk1, state: &state)
    /// let second = white.apply(chunk2, state: &state)   // same as filtering chunk1 + chunk2 at once
    /// ```
    public func apply(_ signal: [Double], state: inout [Double]) -> [Double] {
        let p = order
        guard p > 0 else { return signal }
        precondition(state.count == p, "the state holds the last \(p) inputs")
        var out = signal
        // The first p outputs reach back into the state.
        for i in 0..<min(p, signal.count) {
            var e = signal[i]
            for j in 1...p {
                let past = i - j >= 0 ? signal[i - j] : state[p + i - j]
                e += taps[j] * past
            }
            out[i] = e
        }
        // The rest tap by tap: each output still adds its terms in the order of the
        // taps, but the outputs do not wait on each other.
        if signal.count > p {
            let input = signal.span
            var output = out.mutableSpan
            for j in 1...p {
                let tap = taps[j]
                let past = input.extracting((p - j)..<(signal.count - j))
                var sums = output.extracting(p..<signal.count)
                for i in 0..<past.count { sums[i] += tap * past[i] }
            }
        }
        if signal.count >= p {
            state = Array(signal.suffix(p))
        } else {
            state = Array((state + signal).suffix(p))
        }
        return out
    }
}
