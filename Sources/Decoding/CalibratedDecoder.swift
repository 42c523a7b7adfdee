/// A reference decoder ready for use: a reconvolution CCA fitted on a whole
/// calibration, a certainty model calibrated by inner chronological
/// cross-validation on the same trials (each trial scored by a model that
/// never saw it), and the certainty at which to press for a target error rate.
///
/// ```swift
/// let decoder = try CalibratedDecoder.fit(trials: eeg, labels: y, codes: v, sampleRate: 250)
/// var scorer = decoder.scorer(for: v)
/// scorer.append(chunk)
/// let perr = decoder.certainty.errorProbability(scores: scorer.scores(), seconds: 0.1)
/// if 1 - perr >= decoder.recommendedCertainty { /* press */ }
/// ```
public struct CalibratedDecoder: Sendable {
    /// The model fitted on all calibration trials.
    public let model: ReconvolutionCCA
    /// Perr from scores and length.
    public let certainty: CertaintyModel
    /// The certainty (1 − Perr) at which pressing keeps errors at the target rate.
    public let recommendedCertainty: Double
    /// The error rate `recommendedCertainty` aims at.
    public let targetErrorRate: Double

    /// Fits the model, calibrates its certainty and picks the threshold:
    /// at most `targetErrorRate` wrong presses, and presses in at most
    /// `idlePressRate` of the trials where the user looks at none of the codes.
    /// Trials must be preprocessed (see ``Preprocessor``).
    ///
    /// ```swift
    /// let decoder = try CalibratedDecoder.fit(trials: eeg, labels: y, codes: v, sampleRate: 250, targetErrorRate: 0.05)
    /// ```
    public static func fit(
        trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double,
        settings: ReconvolutionSettings = ReconvolutionSettings(), calibrationFolds: Int = 4,
        targetErrorRate: Double = 0.05, idlePressRate: Double = 0.01, updateInterval: Double = 0.1
    ) throws -> CalibratedDecoder {
        let model = try ReconvolutionCCA.fit(trials: trials, labels: labels, codes: codes, sampleRate: sampleRate, settings: settings)
        let (certainty, threshold) = try calibrate(
            trials: trials, labels: labels, codes: codes, sampleRate: sampleRate, settings: settings,
            latency: model.latency, folds: calibrationFolds, targetErrorRate: targetErrorRate,
            idlePressRate: idlePressRate, updateInterval: updateInterval)
        return CalibratedDecoder(model: model, certainty: certainty, recommendedCertainty: threshold, targetErrorRate: targetErrorRate)
    }

    /// An incremental scorer for a new trial over `codes`.
    ///
    /// ```swift
    /// var scorer = decoder.scorer(for: codes)
    /// ```
    public func scorer(for codes: [[UInt8]]) -> IncrementalScorer {
        IncrementalScorer(spatialFilter: model.spatialFilter, templates: model.templates(for: codes))
    }

    private init(model: ReconvolutionCCA, certainty: CertaintyModel, recommendedCertainty: Double, targetErrorRate: Double) {
        self.model = model
        self.certainty = certainty
        self.recommendedCertainty = recommendedCertainty
        self.targetErrorRate = targetErrorRate
    }

    /// Inner chronological cross-validation: every update of every held-out
    /// trial becomes a certainty example; the threshold comes from pressing
    /// along the same held-out trials, and along the same trials reversed in
    /// time (the recording's noise with no response locked to any code, as
    /// when the user looks at nothing: every press there is false). The
    /// latency is the full fit's.
    static func calibrate(
        trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double, settings: ReconvolutionSettings,
        latency: Double, folds: Int, targetErrorRate: Double, idlePressRate: Double, updateInterval: Double
    ) throws -> (CertaintyModel, Double) {
        var inner = settings
        inner.fixedLatency = latency
        let chunk = max(1, Int((updateInterval * sampleRate).rounded()))
        var examples: [CertaintyExample] = []
        var trajectories: [[CertaintyExample]] = []
        var idleTrajectories: [[CertaintyExample]] = []
        let innerFolds = max(2, min(folds, trials.count))
        for fold in 0..<innerFolds {
            let test = OfflineEvaluation.block(fold, of: innerFolds, count: trials.count)
            let train = (0..<trials.count).filter { !test.contains($0) }
            guard Set(train.map { labels[$0] }).count >= 2 else { continue }
            let model = try ReconvolutionCCA.fit(trials: train.map { trials[$0] }, labels: train.map { labels[$0] },
                                                 codes: codes, sampleRate: sampleRate, settings: inner)
            let templates = model.templates(for: codes)
            for i in test {
                var scorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: templates)
                // The same EEG reversed in time: its noise, but no response locked to any code.
                let reversed = trials[i].map { Array($0.reversed()) }
                var foilScorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: templates)
                var trajectory: [CertaintyExample] = []
                var foilTrajectory: [CertaintyExample] = []
                var position = 0
                let n = trials[i][0].count
                while position < n {
                    let end = min(position + chunk, n)
                    let part = trials[i].map { Array($0[position..<end]) }
                    scorer.append(part)
                    foilScorer.append(reversed.map { Array($0[position..<end]) })
                    position = end
                    let scores = scorer.scores()
                    let best = scores.indices.max { scores[$0] < scores[$1] }!
                    let seconds = Double(position) / sampleRate
                    trajectory.append(.init(scores: scores, seconds: seconds, correct: best == labels[i]))
                    foilTrajectory.append(.init(scores: foilScorer.scores(), seconds: seconds, correct: false))
                }
                examples += trajectory
                trajectories.append(trajectory)
                idleTrajectories.append(foilTrajectory)
            }
        }
        guard !examples.isEmpty else { throw ReconvolutionError.notEnoughData("no fold left two classes to train on") }
        let certainty = try CertaintyModel.fit(examples)
        func certaintyOf(_ e: CertaintyExample) -> Double { 1 - certainty.errorProbability(scores: e.scores, seconds: e.seconds) }
        let threshold = CertaintyModel.recommendedThreshold(
            attended: trajectories.map { $0.map { (certaintyOf($0), $0.correct) } },
            idle: idleTrajectories.map { $0.map(certaintyOf) },
            targetErrorRate: targetErrorRate, idlePressRate: idlePressRate)
        return (certainty, threshold)
    }
}
