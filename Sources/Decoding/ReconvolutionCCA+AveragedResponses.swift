/// Templates that also draw on the calibration's own trials
/// (``ReconvolutionSettings/templateBlend``): where the reconvolution model
/// (one linear response per event) misses part of a person's response to a
/// code, the average of the trials that showed that very code holds it,
/// along with the noise of a few trials; the blend weighs the two.
extension ReconvolutionCCA {
    /// Each code's template: the reconvolution template alone where `blend`
    /// is 0 or the code was not shown in calibration as it is here;
    /// otherwise, over the calibration trial's length, `blend` × the
    /// averaged response plus (1 − `blend`) × the reconvolution template,
    /// both scaled to unit power first (beyond that length, the scaled
    /// reconvolution template).
    public func templates(for codes: [[UInt8]], blend: Double) -> [[Double]] {
        codes.map { code in
            let predicted = Self.template(onsets: encoder.onsets(of: code), length: code.count, kernels: kernels, latency: latencySamples)
            guard blend > 0, let length = averagedResponses.first?.key.count, code.count >= length,
                  let averaged = averagedResponses[Array(code.prefix(length))] else { return predicted }
            let p = Self.power(predicted.prefix(length)), a = Self.power(averaged[...])
            guard p > 0, a > 0 else { return predicted }
            let (sp, sa) = (1 / p.squareRoot(), 1 / a.squareRoot())
            return predicted.indices.map { i in
                i < length ? blend * sa * averaged[i] + (1 - blend) * sp * predicted[i] : sp * predicted[i]
            }
        }
    }

    /// Mean square of `values`.
    private static func power(_ values: ArraySlice<Double>) -> Double {
        values.isEmpty ? 0 : values.reduce(0) { $0 + $1 * $1 } / Double(values.count)
    }

    /// The fewest calibration trials of a code that make an average. One
    /// trial's "average" is mostly that trial's noise, and cross-validation
    /// cannot see the harm it does: a held-out trial whose code was shown
    /// once has no average of its own, while the other codes' noisy ones
    /// only make them look less like it.
    static let minimumTrialsPerAverage = 2

    /// The spatially filtered trials averaged per code (its first `n`
    /// states, `n` the trials' length), for codes shown in at least
    /// ``minimumTrialsPerAverage`` trials; classes sharing a code share one
    /// average.
    func averages(trials: [[[Double]]], labels: [Int], codes: [[UInt8]]) -> [[UInt8]: [Double]] {
        guard let n = trials.first?.first?.count, n > 0 else { return [:] }
        var sums: [[UInt8]: (sum: [Double], count: Int)] = [:]
        for (trial, label) in zip(trials, labels) {
            let key = Array(codes[label].prefix(n))
            let x = filter(trial)
            var entry = sums[key] ?? ([Double](repeating: 0, count: n), 0)
            for i in 0..<n { entry.sum[i] += x[i] }
            entry.count += 1
            sums[key] = entry
        }
        return sums.filter { $0.value.count >= Self.minimumTrialsPerAverage }
            .mapValues { entry in entry.sum.map { $0 / Double(entry.count) } }
    }
}
