/// Templates that also draw on the calibration's own trials
/// (``ReconvolutionSettings/templateBlend``): where the reconvolution model
/// (one linear response per event) misses part of a person's response to a
/// code, the average of the trials that showed that very code holds it,
/// along with the noise of a few trials; the blend weighs the two.
extension ReconvolutionCCA {
    /// Each code's template: the reconvolution template alone where `blend`
    /// is 0 or the code was not shown in calibration as it is here;
    /// otherwise, over the calibration trial's length, `blend` × the
    /// averaged response (scaled to the template's power) plus
    /// (1 − `blend`) × the reconvolution template (beyond that length, the
    /// reconvolution template).
    public func templates(for codes: [[UInt8]], blend: Double) -> [[Double]] {
        let predicted = codes.map { Self.template(onsets: encoder.onsets(of: $0), length: $0.count, kernels: kernels, latency: latencySamples) }
        return blend > 0 ? blending(predicted, with: averages(of: codes), by: blend) : predicted
    }

    /// Each code's averaged response, where calibration showed it as it is
    /// here (nil elsewhere), looked up once for the candidates that share
    /// a fit.
    func averages(of codes: [[UInt8]]) -> [[Double]?] {
        codes.map(averagedResponse(for:))
    }

    /// The averaged response of `code` (at least as long as the
    /// calibration trials), where calibration showed it so from the
    /// trial's first sample; nil elsewhere.
    public func averagedResponse(for code: [UInt8]) -> [Double]? {
        guard let length = averagedResponses.first?.code.count, code.count >= length else { return nil }
        let start = code.prefix(length)
        return averagedResponses.first { $0.code.elementsEqual(start) }?.response
    }

    /// `predicted`, the reconvolution templates of some codes, as
    /// ``templates(for:blend:)`` blends them with `averages` (theirs, from
    /// ``averages(of:)``): for candidates that differ only in their blend,
    /// the templates are made once.
    func blending(_ predicted: [[Double]], with averages: [[Double]?], by blend: Double) -> [[Double]] {
        guard blend > 0 else { return predicted }
        return zip(predicted, averages).map { template, averaged in
            averaged.map { Self.blended(template, averaged: $0, from: 0, blend: blend) } ?? template
        }
    }

    /// A stretch of one object's template in a live trial: `predicted`, the
    /// reconvolution template over samples `start ..< start + count` of the
    /// trial (0 is its first sample; negative, before it), blended by the
    /// settings' ``ReconvolutionSettings/templateBlend`` with `averaged`
    /// (from ``averagedResponse(shownSoFar:)``) where the two overlap, as
    /// ``templates(for:blend:)`` blends a whole trial's.
    public func blended(_ predicted: [Double], averaged: [Double], from start: Int) -> [Double] {
        Self.blended(predicted, averaged: averaged, from: start, blend: settings.templateBlend)
    }

    private static func blended(_ predicted: [Double], averaged: [Double], from start: Int, blend: Double) -> [Double] {
        predicted.enumerated().map { p, value in
            let i = start + p
            return i >= 0 && i < averaged.count ? blend * averaged[i] + (1 - blend) * value : value
        }
    }

    /// For a live trial, the averaged response of the calibration code an
    /// object shows: `shown` is its states from the trial's first sample so
    /// far, and the code is the one whose start differs from them least, in
    /// at most a tenth of the samples (``SampledCode``) and in fewer than
    /// any other code's. Nil when the model keeps no averages, when no code
    /// matches, or while two match equally well (early in a trial codes
    /// can start alike).
    public func averagedResponse(shownSoFar shown: ArraySlice<UInt8>) -> [Double]? {
        guard settings.templateBlend > 0, !shown.isEmpty, let length = averagedResponses.first?.code.count else { return nil }
        let part = shown.prefix(length)
        let allowed = SampledCode.allowedDifferences(in: part.count)
        var best: (differences: Int, average: [Double])?
        var tied = false
        for entry in averagedResponses {
            let d = SampledCode.differences(part, entry.code, limit: allowed)
            guard d <= allowed else { continue }
            if let b = best, d >= b.differences {
                if d == b.differences { tied = true }
                continue
            }
            best = (d, entry.response)
            tied = false
        }
        return tied ? nil : best?.average
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
    /// ``minimumTrialsPerAverage`` trials, each scaled to the power of the
    /// code's reconvolution template over those samples, so that a blend
    /// weighs the two shapes, not their sizes; classes sharing a code share
    /// one average.
    func averages(trials: [[[Double]]], labels: [Int], codes: [[UInt8]]) -> [AveragedResponse] {
        guard let n = trials.first?.first?.count, n > 0 else { return [] }
        // Summed per class first (in place), then classes that showed one code merged: each
        // class's code is compared once, and comparing stops at the first difference.
        var classSums: [Int: (sum: [Double], count: Int)] = [:]
        for (trial, label) in zip(trials, labels) {
            let x = filter(trial)
            var entry = classSums.removeValue(forKey: label) ?? ([Double](repeating: 0, count: n), 0)
            for i in 0..<n { entry.sum[i] += x[i] }
            entry.count += 1
            classSums[label] = entry
        }
        var sums: [(key: [UInt8], sum: [Double], count: Int)] = []
        for label in classSums.keys.sorted() {
            let entry = classSums[label]!
            let key = Array(codes[label].prefix(n))
            if let k = sums.firstIndex(where: { $0.key == key }) {
                for i in 0..<n { sums[k].sum[i] += entry.sum[i] }
                sums[k].count += entry.count
            } else {
                sums.append((key, entry.sum, entry.count))
            }
        }
        var out: [AveragedResponse] = []
        for entry in sums where entry.count >= Self.minimumTrialsPerAverage {
            let key = entry.key
            let predicted = Self.template(onsets: encoder.onsets(of: key), length: n, kernels: kernels, latency: latencySamples)
            let p = Self.power(predicted[...]), a = Self.power(entry.sum[...])
            guard p > 0, a > 0 else { continue }
            let scale = (p / a).squareRoot()
            out.append(AveragedResponse(code: key, response: entry.sum.map { $0 * scale }))
        }
        return out
    }
}
