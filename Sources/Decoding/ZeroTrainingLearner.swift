import Foundation

/// Reconvolution CCA learned without labels, while the user spells
/// (Thielen et al. 2021, J. Neural Eng. 18 056007, "From full calibration
/// to zero training for a code-modulated visual evoked potentials BCI").
/// It keeps every finished trial with the codes that were on screen and a
/// label it chose itself, and the running sums a reconvolution fit needs
/// (`Σ XXᵀ`, `Σ X Mᵀ`, `Σ M Mᵀ` and the means) over the trials as labelled.
///
/// - Each channel of each trial is first whitened in time by its own
///   prediction-error filter (``ReconvolutionSettings/whiteningLength``),
///   fitted on that trial alone, so no label is needed. Labels chosen to fit
///   the EEG best also fit its strongest background: a narrow-band alpha
///   rhythm stays correlated for many samples, and among 36 codes one per
///   trial lines its edges up with it. Unwhitened, a simulated subject's
///   wrong labelling explained six trials with ρ 0.42 against the true
///   one's 0.38, and every label stayed wrong; whitened, the true labelling
///   was the best from the third trial on. The response model absorbs the
///   filter (its kernel becomes the filter applied to the response, which
///   the 0.5 s window holds).
/// - A trial (finished or still running) is scored by *hypothesis*: for
///   each code `k` on screen, the canonical correlation ρₖ of the fit over
///   the learned trials plus this trial labelled `k`. The code the user
///   looked at is the one under which the whole session is best explained
///   by one spatial filter and one response. With no learned trial, the
///   trial is explained on its own; a short one fits every hypothesis
///   about equally well, which is why ``errorProbability(scores:)`` holds
///   back.
/// - The first ``beamUpTo`` trials are labelled by beam search: the
///   ``beamWidth`` best labellings of the trials so far are each extended by
///   every code of the new trial, and the best by the session's canonical
///   correlation are kept. A first trial of a few seconds among 36 codes
///   ranks the code looked at near the top but not always first; keeping
///   several labellings lets the next trials decide (committing to the best
///   at once learned one simulated subject in three wrong from the first
///   trial on, and stayed wrong).
/// - After that, a finished trial is added with its best hypothesis as its
///   label; then every label is revised (hard expectation-maximisation):
///   fit the model on the labels, decode every trial with it (correlation of
///   the spatially filtered trial with each code's predicted response),
///   relabel, and repeat until no label changes. ``add(_:codes:)`` returns
///   the earlier trials whose label changed.
///
/// The model is fixed where a supervised calibration chooses
/// (``defaultSettings``): without labels there is nothing to cross-validate
/// against until enough trials exist, and the hand-over to a supervised
/// fit on the learned labels does that choice.
///
/// ```swift
/// var learner = ZeroTrainingLearner(sampleRate: 240, channels: 8)
/// let scores = learner.hypothesisScores(partialTrial, codes: onScreen)   // while the trial runs
/// let perr = ZeroTrainingLearner.errorProbability(scores: scores)
/// let revised = learner.add(finishedTrial, codes: onScreen)              // after it ends
/// ```
public struct ZeroTrainingLearner: Sendable {
    /// A learned trial: its filtered EEG, the codes on screen (each as long
    /// as the trial) and the label chosen for it (an index into `codes`).
    public struct Trial: Sendable {
        /// Channels × samples, flattened row by row.
        let eeg: Matrix
        /// The codes on screen, one per object.
        public let codes: [[UInt8]]
        /// The index into ``codes`` the learner believes the user looked at.
        public internal(set) var label: Int
        /// The event structure of each code.
        let structures: [EventStructure]
    }

    /// A label that changed when a later trial taught the learner better.
    public struct Revision: Sendable, Equatable {
        /// The trial's index among the learned trials (0 = the first).
        public var trial: Int
        /// Its label before.
        public var from: Int
        /// Its label now.
        public var to: Int
    }

    /// The model a zero-training session starts from: the response from the
    /// stimulus on for 0.5 s (the window holds the latency, which cannot be
    /// estimated before labels exist: a 0.3 s window missed most of a
    /// 165 ms-latency response and learned every label of the FaPra
    /// recording wrong, 0.5 s learned all ten right), rising and falling
    /// edges as events (two responses, learnable from the fewest samples),
    /// each channel whitened over 0.08 s before the fit (the supervised
    /// decoder's default length; see the type's notes), and ten times the supervised shrinkage of the structure
    /// covariance (`gammaM` 0.1): choosing labels to fit the EEG best also
    /// fits its noise, and with the supervised 0.01 a simulated subject's
    /// wrong labelling explained ten 4.2 s trials better (ρ 0.42) than the
    /// true one (0.38).
    public static let defaultSettings: ReconvolutionSettings = {
        var s = ReconvolutionSettings()
        s.gammaM = 0.1
        s.event = .risingFallingEdges
        s.fixedLatency = 0
        s.encodingLength = 0.5
        s.whiteningLength = 0.08
        return s
    }()

    /// Seconds of trial before hypothesis scores are trusted at all: the
    /// calibration-free certainty assumes the wrong codes' scores are
    /// exchangeable draws, which fails while the codes still share most of
    /// their bits and the window is hardly longer than one response (at
    /// 0.1 to 0.3 s it pressed wrong on real EEG; from 1 s, 60 bits at
    /// 60 Hz, it held on the eight real sets).
    public static let minimumSeconds = 1.0

    /// Samples per second.
    public let sampleRate: Double
    /// EEG channels.
    public let channels: Int
    /// The model's settings (latency fixed: the window starts there).
    public let settings: ReconvolutionSettings
    /// The trials learned so far, in order.
    public internal(set) var trials: [Trial] = []
    /// Hard-EM sweeps at most per added trial.
    public var maximumSweeps = 8
    /// Labellings kept while the first trials are learned (beam search).
    public var beamWidth = 8
    /// Trials learned by beam search before the best labelling is kept
    /// alone and revised by hard EM.
    public var beamUpTo = 12

    /// One labelling of the learned trials with its label-dependent sums.
    struct Labelling: Sendable {
        var labels: [Int]
        var sxm: Matrix
        var smm: Matrix
        var sm: [Double]
        var rho: Double
    }

    /// The labellings under consideration (empty after ``beamUpTo`` trials).
    var beam: [Labelling] = []

    /// The labels chosen so far, one per learned trial.
    public var labels: [Int] { trials.map(\.label) }

    let encoder: EventEncoder
    let firstLag: Int
    let lagCount: Int
    var samples = 0
    var sxx: Matrix
    var sx: [Double]
    var sxm: Matrix
    var smm: Matrix
    var sm: [Double]

    /// A learner with nothing learned, for EEG of `channels` channels at
    /// `sampleRate`, preprocessed as a calibration's would be.
    public init(sampleRate: Double, channels: Int, settings: ReconvolutionSettings = ZeroTrainingLearner.defaultSettings) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.settings = settings
        encoder = EventEncoder(definition: .risingFallingEdges, fitting: [])
        firstLag = Int(((settings.fixedLatency ?? 0) * sampleRate).rounded())
        lagCount = ReconvolutionCCA.lagCount(of: settings, sampleRate: sampleRate)
        let features = encoder.eventCount * lagCount
        sxx = Matrix(rows: channels, columns: channels)
        sx = [Double](repeating: 0, count: channels)
        sxm = Matrix(rows: channels, columns: features)
        smm = Matrix(rows: features, columns: features)
        sm = [Double](repeating: 0, count: features)
    }

    /// For each of `codes` (the codes on screen, each at least as long as the
    /// trial), the canonical correlation of the fit over the learned trials
    /// plus `trial` (channels × samples, finished or still running) labelled
    /// with that code. Empty for an empty trial; 0 where a fit fails.
    public func hypothesisScores(_ trial: [[Double]], codes: [[UInt8]]) -> [Double] {
        let n = trial.first?.count ?? 0
        guard n > 0, trial.count == channels, !codes.isEmpty else { return [] }
        let x = Matrix(rows: channels, columns: n, elements: whitened(trial).flatMap { $0 })
        var xx = sxx + x.gram()
        var xs = sx
        for c in 0..<channels { for s in 0..<n { xs[c] += x.elements[c * n + s] } }
        let total = Double(samples + n)
        xx = centred(xx, xs, xs, total)
        return codes.map { code in
            let m = structure(of: code, samples: n)
            var xm = sxm
            m.addProduct(x, to: &xm)
            let mm = smm + m.gram()
            var ms = sm
            for (f, v) in m.rowSums().enumerated() { ms[f] += v }
            let solution = try? ReconvolutionCCA.solve(
                covariance: xx, cxm: centred(xm, xs, ms, total), cmm: centred(mm, ms, ms, total),
                eventCount: encoder.eventCount, lagCount: lagCount, settings: settings)
            return solution?.rho ?? 0
        }
    }

    /// Learns a finished trial (channels × samples, filtered) shown with
    /// `codes` (one per object on screen, each at least as long): labels it
    /// with its best hypothesis, then revises every label by hard EM.
    /// Returns the earlier trials whose label changed. A trial of the wrong
    /// channel count, with no samples or no codes is not learned.
    @discardableResult
    public mutating func add(_ trial: [[Double]], codes: [[UInt8]]) -> [Revision] {
        let n = trial.first?.count ?? 0
        guard n > 0, trial.count == channels, !codes.isEmpty, codes.allSatisfy({ $0.count >= n }),
              trial.allSatisfy({ $0.count == n && $0.allSatisfy(\.isFinite) }) else { return [] }
        let before = labels
        let x = Matrix(rows: channels, columns: n, elements: whitened(trial).flatMap { $0 })
        let structures = codes.map { structure(of: $0, samples: n) }
        if trials.count < beamUpTo {
            trials.append(Trial(eeg: x, codes: codes.map { Array($0.prefix(n)) }, label: 0, structures: structures))
            addShared(x)
            extendBeam(x, structures: structures)
            if trials.count == beamUpTo {
                beam = []
                revise()
            }
        } else {
            let scores = hypothesisScores(trial, codes: codes)
            let label = scores.indices.max { scores[$0] < scores[$1] } ?? 0
            trials.append(Trial(eeg: x, codes: codes.map { Array($0.prefix(n)) }, label: label, structures: structures))
            addShared(x)
            include(trials.count - 1, sign: 1)
            revise()
        }
        return before.indices.compactMap { i in
            trials[i].label == before[i] ? nil : Revision(trial: i, from: before[i], to: trials[i].label)
        }
    }

    /// The white-noise floor of the whitening filters, as a fraction of each
    /// channel's variance: the gain stays bounded in a band the EEG hardly
    /// has. The pyntbci tutorial set is low-passed near 35 Hz upstream (its
    /// 60–120 Hz band 10⁸ times weaker than its 3–10 Hz band); with the
    /// least floor, or 0.01, its 60–120 Hz band was amplified into the fit
    /// and no label of ten was learned; at 0.1 and 0.3 all ten were. Three
    /// other sets tried at 0.01, 0.1 and 0.3 learned all their labels at each;
    /// 0.3 cost one wrong early press on one of them.
    public static let whiteningFloor = 0.1

    /// Each channel of `trial` through its own prediction-error filter of
    /// ``ReconvolutionSettings/whiteningLength`` (at most a quarter of its
    /// samples long) with ``whiteningFloor``, fitted on the channel itself;
    /// unchanged when the length is 0.
    func whitened(_ trial: [[Double]]) -> [[Double]] {
        let order = Int((settings.whiteningLength * sampleRate).rounded())
        guard order > 0 else { return trial }
        return trial.map { channel in
            PredictionErrorFilter.fit(residuals: [channel], order: min(order, channel.count / 4), floor: Self.whiteningFloor).apply(channel)
        }
    }

    /// Adds a trial's EEG to the label-independent sums.
    private mutating func addShared(_ x: Matrix) {
        sxx = sxx + x.gram()
        for c in 0..<channels { for s in 0..<x.columns { sx[c] += x.elements[c * x.columns + s] } }
        samples += x.columns
    }

    /// Every labelling of the beam extended by every code of the new (last)
    /// trial, scored by the session's canonical correlation; the best
    /// ``beamWidth`` are kept and the best of all becomes the labels (equal
    /// correlations in the order of the labellings, then of the codes).
    private mutating func extendBeam(_ x: Matrix, structures: [EventStructure]) {
        let total = Double(samples)
        let covariance = centred(sxx, sx, sx, total)
        let contributions = structures.map { m in (product: m.product(x), gram: m.gram(), sums: m.rowSums()) }
        let starts = beam.isEmpty ? [Labelling(labels: [], sxm: sxm, smm: smm, sm: sm, rho: 0)] : beam
        var scored: [(start: Int, code: Int, rho: Double)] = []
        for (b, start) in starts.enumerated() {
            for (k, c) in contributions.enumerated() {
                let ms = zip(start.sm, c.sums).map { $0 + $1 }
                let solution = try? ReconvolutionCCA.solve(
                    covariance: covariance, cxm: centred(start.sxm + c.product, sx, ms, total),
                    cmm: centred(start.smm + c.gram, ms, ms, total),
                    eventCount: encoder.eventCount, lagCount: lagCount, settings: settings)
                scored.append((b, k, solution?.rho ?? 0))
            }
        }
        let ranked = scored.sorted { ($0.rho, -$0.start, -$0.code) > ($1.rho, -$1.start, -$1.code) }
        beam = ranked.prefix(beamWidth).map { pick in
            let start = starts[pick.start], c = contributions[pick.code]
            return Labelling(labels: start.labels + [pick.code], sxm: start.sxm + c.product, smm: start.smm + c.gram,
                             sm: zip(start.sm, c.sums).map { $0 + $1 }, rho: pick.rho)
        }
        let best = beam[0]
        for i in trials.indices { trials[i].label = best.labels[i] }
        sxm = best.sxm
        smm = best.smm
        sm = best.sm
    }

    private mutating func revise() {
        guard trials.count >= 2 else { return }
        for _ in 0..<maximumSweeps {
            guard let solution = solution() else { return }
            var changed = false
            for i in trials.indices {
                let scores = correlations(of: i, with: solution)
                guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), best != trials[i].label else { continue }
                include(i, sign: -1)
                trials[i].label = best
                include(i, sign: 1)
                changed = true
            }
            if !changed { return }
        }
    }

    func solution() -> ReconvolutionCCA.Solution? {
        guard samples > 0 else { return nil }
        let total = Double(samples)
        return try? ReconvolutionCCA.solve(
            covariance: centred(sxx, sx, sx, total), cxm: centred(sxm, sx, sm, total), cmm: centred(smm, sm, sm, total),
            eventCount: encoder.eventCount, lagCount: lagCount, settings: settings)
    }

    /// Adds (sign 1) or takes out (−1) learned trial `index`'s label-dependent sums.
    private mutating func include(_ index: Int, sign: Double) {
        let trial = trials[index]
        let m = trial.structures[trial.label]
        var product = Matrix(rows: channels, columns: sxm.columns)
        m.addProduct(trial.eeg, to: &product)
        sxm = sxm + product.scaled(by: sign)
        smm = smm + m.gram().scaled(by: sign)
        for (f, v) in m.rowSums().enumerated() { sm[f] += sign * v }
    }
}
