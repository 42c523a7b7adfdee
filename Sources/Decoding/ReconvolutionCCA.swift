import Codes
import Foundation

/// Reconvolution CCA (Thielen et al. 2015, PLOS ONE 10(7) e0133797; pyntbci's
/// `rCCA` is the reference): the EEG's response to a code is modelled as the
/// sum of one transient response per event (here: light on, light off; or one
/// per flash length), each lasting ``ReconvolutionSettings/encodingLength``.
/// A canonical correlation analysis between the EEG channels and the
/// Toeplitz structure matrix of the events gives a spatial filter `w` and the
/// responses `r` together. Templates are then predicted for any code from its
/// events, so codes never seen in calibration are decodable.
///
/// The stimulus-to-response latency (display plus amplifier) is estimated
/// from the calibration data: a first fit with lags from −0.1 s to
/// `maximumLatency + encodingLength` gives the response over lags; the
/// latency is the first lag at which it rises above the midpoint between its
/// level before the stimulus (lags < 0, where any response is noise) and its
/// peak: the onset of the response.
///
/// ```swift
/// let model = try ReconvolutionCCA.fit(trials: eeg, labels: y, codes: codes, sampleRate: 250)
/// print(model.latency)                        // seconds, e.g. 0.04
/// let templates = model.templates(for: codes) // one per class, any length
/// ```
public struct ReconvolutionCCA: Sendable {
    /// The settings the model was fitted with.
    public let settings: ReconvolutionSettings
    /// Samples per second.
    public let sampleRate: Double
    /// The event encoder learned from the calibration codes.
    public let encoder: EventEncoder
    /// The spatial filter, one weight per channel.
    public let spatialFilter: [Double]
    /// The spatial pattern (forward model `Cxx·w`), one value per channel.
    public let spatialPattern: [Double]
    /// The response to each event over `lagCount` samples from `latencySamples`.
    public let kernels: [[Double]]
    /// The canonical correlation of the fit.
    public let canonicalCorrelation: Double
    /// Estimated (or fixed) latency in samples.
    public let latencySamples: Int

    /// The response's onset as estimated from the calibration (see the
    /// type's notes), in samples; nil when a fit inside settings selection
    /// skipped it because its window starts at a fixed latency.
    public let measuredLatencySamples: Int?

    /// The measured onset in seconds: the subject's stimulus-to-response
    /// latency, whether or not the model's window starts there (a window
    /// from the stimulus holds the latency inside its response); the
    /// window's start when it was not measured.
    public var responseLatency: Double { Double(measuredLatencySamples ?? latencySamples) / sampleRate }

    /// The latency in seconds.
    public var latency: Double { Double(latencySamples) / sampleRate }
    /// The temporal whitening filter of the spatially filtered EEG, fitted on
    /// the calibration's residual background (``ReconvolutionSettings/whiteningLength``).
    public private(set) var whitening: PredictionErrorFilter
    /// Each calibration code's average spatially filtered response over its
    /// calibration trials (one per code shown in at least two, in the order
    /// of the classes that showed it), for
    /// ``ReconvolutionSettings/templateBlend``; kept only by a fit whose
    /// settings blend. A list, not a dictionary keyed by code: there are
    /// few, and comparing codes stops at their first difference where
    /// hashing reads every state.
    public internal(set) var averagedResponses: [AveragedResponse] = []

    /// Fits the model to `trials` (each channels × samples), their class
    /// `labels`, and the classes' `codes` (each: stimulus state per sample,
    /// at least as long as a trial). With `measuringLatency` (the default)
    /// the response's onset is estimated even when the settings fix where
    /// the window starts (``responseLatency``); without, it is skipped there.
    public static func fit(
        trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double,
        settings: ReconvolutionSettings = ReconvolutionSettings(), measuringLatency: Bool = true
    ) throws -> ReconvolutionCCA {
        try fit(trials: trials, labels: labels, codes: codes, sampleRate: sampleRate, settings: settings, statistics: nil,
                measuringLatency: measuringLatency)
    }

    /// The fit, reusing the EEG sums of these very trials when a caller
    /// fitting several settings on them has them already, and the structure
    /// covariances of a window that holds the fit's ``lags(of:sampleRate:measuringLatency:)``
    /// (any other is computed here).
    static func fit(
        trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double,
        settings: ReconvolutionSettings, statistics given: CovarianceSums?, structure: StructureCovariances? = nil,
        measuringLatency: Bool = false
    ) throws -> ReconvolutionCCA {
        guard trials.count >= 2 else { throw ReconvolutionError.notEnoughData("\(trials.count) trial(s)") }
        guard labels.count == trials.count else { throw ReconvolutionError.shapeMismatch("\(trials.count) trials, \(labels.count) labels") }
        guard Set(labels).count >= 2 else { throw ReconvolutionError.notEnoughData("one class only") }
        let channels = trials[0].count
        let n = trials[0].first?.count ?? 0
        guard channels > 0, n > 0, trials.allSatisfy({ $0.count == channels && $0.allSatisfy { $0.count == n } }) else {
            throw ReconvolutionError.shapeMismatch("trials differ in channels or samples")
        }
        guard labels.allSatisfy({ $0 >= 0 && $0 < codes.count }), codes.allSatisfy({ $0.count >= n }) else {
            throw ReconvolutionError.shapeMismatch("a label has no code, or a code is shorter than the trials")
        }
        if let bad = trials.firstIndex(where: { $0.contains { $0.contains { !$0.isFinite } } }) {
            throw ReconvolutionError.nonFinite(trial: bad)
        }
        let encoder = EventEncoder(definition: settings.event, fitting: codes.map { Array($0.prefix(n)) })
        let lagCount = Self.lagCount(of: settings, sampleRate: sampleRate)
        let statistics = given ?? CovarianceSums(trials: trials, labels: labels)
        func estimatedLatency() throws -> Int {
            let lags = Self.latencySearchLags(of: settings, sampleRate: sampleRate)
            // The wide fit has many more parameters: shrink its covariance more.
            var wideSettings = settings
            wideSettings.gammaM = max(settings.gammaM, 0.1)
            let wide = try solve(statistics, codes: codes, encoder: encoder, n: n, firstLag: lags.lowerBound,
                                 lagCount: lags.count, settings: wideSettings, structure: structure)
            return onset(of: wide.kernels, before: -lags.lowerBound)
        }
        let latency: Int, measured: Int?
        if let fixed = settings.fixedLatency {
            latency = Int((fixed * sampleRate).rounded())
            measured = measuringLatency ? try estimatedLatency() : nil
        } else {
            latency = try estimatedLatency()
            measured = latency
        }
        let fit = try solve(statistics, codes: codes, encoder: encoder, n: n, firstLag: latency,
                            lagCount: lagCount, settings: settings, structure: structure)
        var model = ReconvolutionCCA(
            settings: settings, sampleRate: sampleRate, encoder: encoder, spatialFilter: fit.w,
            spatialPattern: fit.pattern, kernels: fit.kernels, canonicalCorrelation: fit.rho,
            latencySamples: latency, measuredLatencySamples: measured, whitening: .identity)
        let order = max(0, Int((settings.whiteningLength * sampleRate).rounded()))
        if order > 0 {
            // The background left when each trial's fitted response is taken out.
            let templates = model.templates(for: codes.map { Array($0.prefix(n)) }, blend: 0)
            let residuals = zip(trials, labels).map { trial, label -> [Double] in
                let x = model.filter(trial), t = templates[label]
                var xt = 0.0, tt = 0.0
                for i in 0..<n { xt += x[i] * t[i]; tt += t[i] * t[i] }
                let scale = tt > 0 ? xt / tt : 0
                return (0..<n).map { x[$0] - scale * t[$0] }
            }
            model.whitening = PredictionErrorFilter.fit(residuals: residuals, order: min(order, n / 4))
        }
        if settings.templateBlend > 0 { model.averagedResponses = model.averages(trials: trials, labels: labels, codes: codes) }
        return model
    }

    /// A scorer for a trial showing `codes` (one per object, each at least as
    /// long as the trial), whitening the EEG and the templates alike.
    ///
    /// ```swift
    /// var scorer = model.scorer(for: codesOnScreen)
    /// scorer.append(chunk)                 // channels × new samples
    /// let best = scorer.scores().indices.max { scorer.scores()[$0] < scorer.scores()[$1] }
    /// ```
    public func scorer(for codes: [[UInt8]]) -> IncrementalScorer {
        IncrementalScorer(spatialFilter: spatialFilter, templates: templates(for: codes), whitening: whitening)
    }

    /// The predicted (spatially filtered) response to each code, as long as
    /// the code, blended with its averaged calibration response by the
    /// settings' ``ReconvolutionSettings/templateBlend``.
    public func templates(for codes: [[UInt8]]) -> [[Double]] { templates(for: codes, blend: settings.templateBlend) }

    /// Applies the spatial filter to one trial (channels × samples).
    public func filter(_ trial: [[Double]]) -> [Double] {
        let n = trial.first?.count ?? 0
        var out = [Double](repeating: 0, count: n)
        var sums = out.mutableSpan
        for (c, row) in trial.enumerated() {
            let w = spatialFilter[c]
            let samples = row.span
            for i in 0..<min(n, samples.count) { sums[i] += w * samples[i] }
        }
        return out
    }

    /// The response predicted for events at `onsets` (per event): each
    /// event's kernel added from `latency` samples after each of its onsets.
    /// Also the zero-training learner's decoding step.
    static func template(onsets: [[Int]], length: Int, kernels: [[Double]], latency: Int) -> [Double] {
        var t = [Double](repeating: 0, count: length)
        var out = t.mutableSpan
        for (e, list) in onsets.enumerated() {
            let kernel = kernels[e]
            let values = kernel.span
            for o in list {
                // The kernel's lags that land inside the trial, added as one run.
                let first = max(0, -(o + latency)), end = min(values.count, length - (o + latency))
                guard first < end else { continue }
                let window = values.extracting(first..<end)
                var sums = out.extracting((o + latency + first)..<(o + latency + end))
                for i in 0..<window.count { sums[i] += window[i] }
            }
        }
        return t
    }

    /// The first lag (≥ 0) at which the response envelope rises above the
    /// midpoint between its pre-stimulus RMS (the noise floor: no response
    /// can precede the stimulus) and its peak.
    static func onset(of kernels: [[Double]], before: Int) -> Int {
        let lags = kernels[0].count
        let envelope = (0..<lags).map { j in kernels.reduce(0) { $0 + $1[j] * $1[j] }.squareRoot() }
        let pre = envelope[0..<before]
        let noise = (pre.reduce(0) { $0 + $1 * $1 } / Double(max(1, before))).squareRoot()
        let peak = envelope[before...].max() ?? 0
        let threshold = noise + 0.5 * (peak - noise)
        let first = (before..<lags).first { envelope[$0] > threshold } ?? before
        return first - before
    }

    struct Solution { var w: [Double]; var pattern: [Double]; var kernels: [[Double]]; var rho: Double }

    private static func solve(
        _ s: CovarianceSums, codes: [[UInt8]], encoder: EventEncoder, n: Int,
        firstLag: Int, lagCount: Int, settings: ReconvolutionSettings, structure: StructureCovariances?
    ) throws -> Solution {
        let block = structure?.window(of: encoder, firstLag: firstLag, lagCount: lagCount)
            ?? StructureCovariances(s, codes: codes, encoder: encoder, n: n, firstLag: firstLag, lagCount: lagCount)
        return try solve(covariance: s.covariance, cxm: block.cxm, cmm: block.cmm, eventCount: encoder.eventCount,
                         lagCount: lagCount, settings: settings)
    }

    /// Samples of response modelled after each event.
    static func lagCount(of settings: ReconvolutionSettings, sampleRate: Double) -> Int {
        max(1, Int((settings.encodingLength * sampleRate).rounded()))
    }

    /// The lags of the wide fit that estimates the latency: from 0.1 s
    /// before the stimulus (where no response can be: the noise floor) to
    /// the longest latency searched plus the response.
    static func latencySearchLags(of settings: ReconvolutionSettings, sampleRate: Double) -> Range<Int> {
        let before = Int((0.1 * sampleRate).rounded())
        return -before..<(Int((settings.maximumLatency * sampleRate).rounded()) + lagCount(of: settings, sampleRate: sampleRate))
    }

    /// The lags (samples from each onset) a fit with `settings` models,
    /// with the wide fit that estimates the latency when it does.
    static func lags(of settings: ReconvolutionSettings, sampleRate: Double, measuringLatency: Bool) -> Range<Int> {
        let lagCount = lagCount(of: settings, sampleRate: sampleRate)
        var lags = 0..<0
        if settings.fixedLatency == nil || measuringLatency { lags = latencySearchLags(of: settings, sampleRate: sampleRate) }
        if let fixed = settings.fixedLatency {
            let latency = Int((fixed * sampleRate).rounded())
            lags = lags.isEmpty ? latency..<(latency + lagCount)
                : min(lags.lowerBound, latency)..<max(lags.upperBound, latency + lagCount)
        }
        return lags
    }

    /// The canonical pair from the covariances themselves: `Cxx` (channels²),
    /// `Cxm` (channels × event·lag features) and `Cmm` (features²), shrunk
    /// by the settings' `gammaX` and `gammaM`. Also the zero-training
    /// learner's solve, which keeps these covariances as running sums.
    static func solve(
        covariance: Matrix, cxm: Matrix, cmm given: Matrix, eventCount: Int, lagCount: Int,
        settings: ReconvolutionSettings
    ) throws -> Solution {
        let features = eventCount * lagCount
        let channels = covariance.rows
        let cxx = covariance.shrunk(by: settings.gammaX)
        let cmm = given.shrunk(by: settings.gammaM)
        let factor: CholeskyFactor
        do { factor = try CholeskyFactor(cmm) } catch let error as LinearAlgebraError {
            throw ReconvolutionError.singular(error, of: .codes)
        }
        do {
            // P = (Cmm⁻¹ Cmx)ᵀ, then Cxm Cmm⁻¹ Cmx w = ρ² Cxx w.
            let p = try factor.solve(cxm)
            let between = cxm.multiplied(by: p, transposingOther: true)
            let (values, vectors): ([Double], Matrix)
            do {
                (values, vectors) = try GeneralizedEigenproblem.solve(a: between, b: cxx)
            } catch LinearAlgebraError.notPositiveDefinite where settings.gammaX < 1e-6 {
                // A rank-deficient EEG covariance (channels re-referenced to their average,
                // a channel duplicated): the least shrinkage that makes it definite.
                (values, vectors) = try GeneralizedEigenproblem.solve(a: between, b: covariance.shrunk(by: 1e-6))
            }
            var w = vectors.row(values.count - 1)
            var r = [Double](repeating: 0, count: features)
            for c in 0..<channels { for f in 0..<features { r[f] += p[c, f] * w[c] } }
            // Sign: the strongest value of the first event's response is positive.
            let firstEvent = r[0..<lagCount]
            if let strongest = firstEvent.max(by: { abs($0) < abs($1) }), strongest < 0 {
                w = w.map { -$0 }
                r = r.map { -$0 }
            }
            let pattern = cxx.multiplied(by: Matrix(rows: 1, columns: channels, elements: w), transposingOther: true).elements
            let kernels = (0..<eventCount).map { e in Array(r[(e * lagCount)..<((e + 1) * lagCount)]) }
            return Solution(w: w, pattern: pattern, kernels: kernels, rho: max(0, values.last ?? 0).squareRoot())
        } catch let error as LinearAlgebraError {
            throw ReconvolutionError.singular(error, of: .eeg)
        }
    }
}
