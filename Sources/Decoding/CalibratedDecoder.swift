import Codes
import Synchronization
import Foundation
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
    /// The low-pass edge (Hz) of the band its trials were preprocessed to
    /// (nil: the high-pass and notch only): the EEG it scores must be
    /// filtered the same way.
    public let lowPass: Double?

    /// Fits the model, calibrates its certainty and picks the threshold:
    /// at most `targetErrorRate` wrong presses, predicted and observed, and at
    /// most `idlePressesPerMinute` false presses while the user looks at none
    /// of the codes (see ``CertaintyModel/recommendedThreshold(attended:idle:targetErrorRate:idlePressRate:)``).
    /// Trials must be preprocessed (see ``Preprocessor``).
    ///
    /// `trialClasses`, when given, names for each trial the classes that
    /// were on screen in it (its label among them): the certainty is then
    /// calibrated, and the idle surrogates scored, against those classes
    /// only, as a live trial scores only the codes on screen. Without it
    /// every trial is scored against every class. A calibration whose codes
    /// are translated from trial to trial has many more classes than any
    /// trial shows, and a best score among many similar classes has a
    /// smaller margin than among the few on screen, so without
    /// `trialClasses` its certainty would be too low in calibration and its
    /// threshold too lenient live. `lowPass` records the band the trials
    /// were preprocessed to (``lowPass``).
    ///
    /// ```swift
    /// let decoder = try CalibratedDecoder.fit(trials: eeg, labels: y, codes: v, sampleRate: 250, targetErrorRate: 0.05)
    /// let live = try CalibratedDecoder.fit(trials: eeg, labels: y, codes: v, sampleRate: 250,
    ///                                      trialClasses: [[0, 1, 2], [3, 4, 5], [0, 1, 2]])
    /// ```
    public static func fit(
        trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double,
        settings: ReconvolutionSettings = ReconvolutionSettings(), calibrationFolds: Int = 4,
        targetErrorRate: Double = 0.05, idlePressesPerMinute: Double = 0.1, updateInterval: Double = 0.1,
        trialClasses: [[Int]]? = nil, lowPass: Double? = nil
    ) throws -> CalibratedDecoder {
        if let trialClasses {
            guard trialClasses.count == trials.count else {
                throw ReconvolutionError.shapeMismatch("\(trialClasses.count) class lists for \(trials.count) trials")
            }
            for (i, classes) in trialClasses.enumerated() {
                guard classes.allSatisfy(codes.indices.contains), i < labels.count, classes.contains(labels[i]) else {
                    throw ReconvolutionError.shapeMismatch("trial \(i)'s classes \(classes) must be class indices below \(codes.count) holding its label")
                }
            }
        }
        let model = try ReconvolutionCCA.fit(trials: trials, labels: labels, codes: codes, sampleRate: sampleRate, settings: settings)
        let (certainty, threshold) = try calibrate(
            trials: trials, labels: labels, codes: codes, sampleRate: sampleRate, settings: settings,
            latency: model.latency, folds: calibrationFolds, targetErrorRate: targetErrorRate,
            idlePressesPerMinute: idlePressesPerMinute, updateInterval: updateInterval, trialClasses: trialClasses)
        return CalibratedDecoder(model: model, certainty: certainty, recommendedCertainty: threshold, targetErrorRate: targetErrorRate,
                                 lowPass: lowPass)
    }

    /// An incremental scorer for a new trial over `codes`.
    public func scorer(for codes: [[UInt8]]) -> IncrementalScorer {
        model.scorer(for: codes)
    }

    private init(model: ReconvolutionCCA, certainty: CertaintyModel, recommendedCertainty: Double, targetErrorRate: Double,
                 lowPass: Double?) {
        self.lowPass = lowPass
        self.model = model
        self.certainty = certainty
        self.recommendedCertainty = recommendedCertainty
        self.targetErrorRate = targetErrorRate
    }

    /// Inner chronological cross-validation: every update of every held-out
    /// trial becomes a certainty example, and pressing along the same
    /// held-out trials gives the attended trajectories. The idle trajectories
    /// are surrogates of the held-out EEG where every press is false: the
    /// spatially filtered signal from the trial on (wrapping round the
    /// calibration) for `foilSeconds`, longer than a calibration trial as
    /// prediction trials are, with the phase of every frequency randomised
    /// (FFTW), which keeps its spectrum, so its background and
    /// autocorrelation, and locks nothing to any code. They are scored
    /// against the codes repeated to that length; `foils` per trial, seeded
    /// by the trial's index so a calibration always gives the same threshold.
    /// Their updates also weigh in the certainty model (see
    /// ``CertaintyModel/fit(_:idle:ridge:)``), so that its Perr of a noise
    /// stretch, where the threshold is set, is fitted rather than guessed.
    /// Each held-out trial and its surrogates are scored against its
    /// `trialClasses` (all classes when nil or fewer than two). The latency
    /// is the full fit's.
    static func calibrate(
        trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double, settings: ReconvolutionSettings,
        latency: Double, folds: Int, targetErrorRate: Double, idlePressesPerMinute: Double, updateInterval: Double,
        foils foilCount: Int = 12, foilSeconds: Double = 10, trialClasses: [[Int]]? = nil
    ) throws -> (CertaintyModel, Double) {
        let inner = { var s = settings; s.fixedLatency = latency; return s }()
        let chunk = max(1, Int((updateInterval * sampleRate).rounded()))
        let codeLength = codes.first?.count ?? 0
        let longLength = max(codeLength, Int((foilSeconds * sampleRate).rounded()))
        let longCodes = codes.map { code in (0..<longLength).map { code[$0 % max(1, code.count)] } }
        // Each inner fold on its own (both cores), merged in fold order: the same result as one after another.
        let innerFolds = max(2, min(folds, trials.count))
        let parts = Mutex<[Result<CalibrationPart, Error>?]>(Array(repeating: nil, count: innerFolds))
        DispatchQueue.concurrentPerform(iterations: innerFolds) { fold in
            let outcome = Result { () throws -> CalibrationPart in
                var part = CalibrationPart()
                let test = OfflineEvaluation.block(fold, of: innerFolds, count: trials.count)
                let train = (0..<trials.count).filter { !test.contains($0) }
                guard Set(train.map { labels[$0] }).count >= 2 else { return part }
                let fft = RealFFT(size: longLength)
                let model = try ReconvolutionCCA.fit(trials: train.map { trials[$0] }, labels: train.map { labels[$0] },
                                                     codes: codes, sampleRate: sampleRate, settings: inner, measuringLatency: false)
                let templates = model.templates(for: codes)
                let longTemplates = model.templates(for: longCodes)
                for i in test {
                    let n = trials[i][0].count
                    let shown = trialClasses.map { $0[i] }.flatMap { $0.count >= 2 ? $0 : nil } ?? Array(codes.indices)
                    var scorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: shown.map { templates[$0] },
                                                   whitening: model.whitening)
                    let trajectory = scorer.append(trials[i], scoringEvery: chunk).enumerated().map { step, scores in
                        let best = scores.indices.max { scores[$0] < scores[$1] }!
                        return CertaintyExample(scores: scores, seconds: Double(min((step + 1) * chunk, n)) / sampleRate,
                                                correct: shown[best] == labels[i])
                    }
                    part.examples += trajectory
                    part.trajectories.append(trajectory)

                    // Surrogates: the filtered EEG from this trial on (wrapping round the
                    // calibration) for `foilSeconds`, its spectrum with random phases.
                    var filtered: [Double] = []
                    var next = i
                    while filtered.count < longLength {
                        filtered += model.filter(trials[next])
                        next = (next + 1) % trials.count
                    }
                    filtered.removeLast(filtered.count - longLength)
                    var generator = SeededGenerator(seed: 0x5eed_0000 &+ UInt64(i))
                    // The shown classes' long templates, whitened once for all of this trial's surrogates.
                    let freshFoilScorer = IncrementalScorer(spatialFilter: [1], templates: shown.map { longTemplates[$0] },
                                                            whitening: model.whitening)
                    for _ in 0..<max(1, foilCount) {
                        let phases = (0..<(longLength / 2)).map { _ in Double.random(in: 0..<(2 * .pi), using: &generator) }
                        let noise = fft.withPhases(of: filtered, phases: phases)
                        var foilScorer = freshFoilScorer
                        part.foils.append(foilScorer.append([noise], scoringEvery: chunk).enumerated().map { step, scores in
                            CertaintyExample(scores: scores, seconds: Double(min((step + 1) * chunk, longLength)) / sampleRate, correct: false)
                        })
                    }
                    part.foilMinutes += Double(longLength) / sampleRate / 60 * Double(max(1, foilCount))
                }
                return part
            }
            parts.withLock { $0[fold] = outcome }
        }
        var examples: [CertaintyExample] = []
        var trajectories: [[CertaintyExample]] = []
        var foils: [[CertaintyExample]] = []
        var foilMinutes = 0.0
        for result in parts.withLock({ $0 }) {
            guard let part = try result?.get() else { continue }
            examples += part.examples
            trajectories += part.trajectories
            foils += part.foils
            foilMinutes += part.foilMinutes
        }
        guard !examples.isEmpty else { throw ReconvolutionError.notEnoughData("no fold left two classes to train on") }
        let certainty = try CertaintyModel.fit(examples, idle: foils.flatMap { $0 })
        func certaintyOf(_ e: CertaintyExample) -> Double { 1 - certainty.errorProbability(scores: e.scores, seconds: e.seconds) }
        let threshold = CertaintyModel.recommendedThreshold(
            attended: trajectories.map { $0.map { (certaintyOf($0), $0.correct) } },
            idle: foils.map { $0.map(certaintyOf) },
            targetErrorRate: targetErrorRate,
            idlePressRate: idlePressesPerMinute * foilMinutes / Double(max(1, foils.count)))
        return (certainty, threshold)
    }

    /// One inner fold's share of the certainty calibration.
    struct CalibrationPart: Sendable {
        var examples: [CertaintyExample] = []
        var trajectories: [[CertaintyExample]] = []
        var foils: [[CertaintyExample]] = []
        var foilMinutes = 0.0
    }
}
