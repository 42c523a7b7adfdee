import Foundation
import Synchronization

/// Cross-validates the reference decoder on a trials dataset, as it would
/// run live: preprocessing, a reconvolution CCA fit per fold, a certainty
/// model calibrated by inner cross-validation on the fold's training trials
/// only, then incremental scoring of each test trial in `updateInterval`
/// steps, read out at each of `lengths`; and pressing as the engine would,
/// at the first update whose certainty reaches the fold's recommended
/// threshold.
///
/// Folds are chronological: the trials are cut into `folds` consecutive
/// blocks and each block is tested once on a model trained on the others.
///
/// ```swift
/// let dataset = try TrialsDataset.read(from: URL(fileURLWithPath: "sim9"))
/// let report = try OfflineEvaluation().run(dataset)
/// for row in report.rows { print(row.seconds, row.accuracy) }
/// ```
public struct OfflineEvaluation: Sendable {
    /// Number of chronological folds.
    public var folds = 5
    /// Inner folds for certainty calibration.
    public var calibrationFolds = 4
    /// Trial lengths (seconds) to report; lengths beyond the trials are skipped.
    public var lengths = [0.5, 1, 2, 4]
    /// Seconds of data per incremental update.
    public var updateInterval = 0.1
    /// The error rate the recommended certainty aims at.
    public var targetErrorRate = 0.05
    /// False presses per minute the recommended certainty allows while the
    /// user looks at none of the codes.
    public var idlePressesPerMinute = 0.1
    /// Mains frequency for the notch; nil: found in the recording
    /// (``MainsDetector``), notched with its harmonics, or 50 Hz alone
    /// when none stands out.
    public var lineFrequency: Double? = 50
    /// The re-reference before filtering.
    public var reference = ChannelReference.asRecorded
    /// The model's settings when ``selection`` is nil.
    public var settings = ReconvolutionSettings()
    /// When set, each fold chooses its settings and band by
    /// cross-validation on its own training trials (nested cross-validation),
    /// as a live calibration does; ``settings`` is then unused.
    public var selection: SettingsSelection?
    /// The highest rate decoded: a faster recording is decimated first
    /// (``TrialsDataset/decimated(toAtMost:)``).
    public var maximumRate = 256.0
    /// The low-pass edge when ``selection`` is nil (nil: none).
    public var lowPass: Double?
    /// The dataset's trials already preprocessed, by band (low-pass edge),
    /// as the live decoder's continuous filters gave them: used as they are
    /// for those bands (at the recorded rate only) instead of filtering each
    /// trial, so a calibration's cross-validation scores what its model saw.
    public var preprocessed: [Double?: [[[Double]]]]?

    /// The one candidate evaluated when ``selection`` is nil: ``lowPass``
    /// and ``settings`` together.
    public var candidate: FitCandidate {
        get { FitCandidate(lowPass: lowPass, settings: settings) }
        set { (lowPass, settings) = (newValue.lowPass, newValue.settings) }
    }

    /// An evaluation with the defaults (5 folds; 0.5, 1, 2, 4 s; 100 ms updates).
    public init() {}

    /// Every candidate of `grid` evaluated as a fixed setting on the same
    /// folds and preprocessing (``selection`` set aside), in grid order: the
    /// check that choosing per person loses to no single fixed choice.
    /// Only accuracy is measured for each candidate: no certainty is
    /// calibrated, which is most of a fixed setting's time.
    public func everyCandidate(_ dataset: TrialsDataset, grid: [FitCandidate] = FitCandidate.standardGrid) throws -> [CandidateEvaluation] {
        var base = self
        base.selection = nil
        base.calibratesCertainty = false
        let fixed = base, decimated = try dataset.decimated(toAtMost: maximumRate)
        // The candidates side by side on every core, each on its own copy; gathered in grid order.
        let results = Mutex<[Result<CandidateEvaluation, Error>?]>(Array(repeating: nil, count: grid.count))
        DispatchQueue.concurrentPerform(iterations: grid.count) { k in
            var one = fixed
            one.candidate = grid[k]
            let outcome = Result {
                CandidateEvaluation(candidate: grid[k], rows: try one.run(decimated).rows.map {
                    CandidateEvaluation.Row(seconds: $0.seconds, accuracy: $0.accuracy, itr: $0.itr, trials: $0.trials)
                })
            }
            results.withLock { $0[k] = outcome }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// Whether each fold calibrates its certainty (the predicted error,
    /// the presses and the idle presses need it); without, only accuracy
    /// and ITR are measured, and the predicted error is NaN.
    var calibratesCertainty = true

    /// Runs the evaluation. With `idle` (trials recorded while the user
    /// looked at none of the codes, same channels and rate), every fold's
    /// decoder also listens to each idle trial, scored against the codes
    /// that trial showed, and every press there counts as false.
    public func run(_ recorded: TrialsDataset, idle recordedIdle: TrialsDataset? = nil) throws -> EvaluationReport {
        if let idle = recordedIdle?.header, idle.nChannels != recorded.header.nChannels || idle.fs != recorded.header.fs {
            throw ReconvolutionError.shapeMismatch(
                "the idle dataset has \(idle.nChannels) channels at \(RateText.format(idle.fs)) Hz; the calibration \(recorded.header.nChannels) at \(RateText.format(recorded.header.fs)) Hz")
        }
        let dataset = try recorded.decimated(toAtMost: maximumRate)
        let idle = try recordedIdle?.decimated(toAtMost: maximumRate)
        let h = dataset.header
        try Preprocessor.check(sampleRate: h.fs)
        guard h.nTrials >= folds, folds >= 2 else {
            throw ReconvolutionError.notEnoughData("\(h.nTrials) trials for \(folds) folds")
        }
        let mains = Self.mains(lineFrequency, of: dataset)
        var bands: [Double?: [[[Double]]]] = h.fs == recorded.header.fs ? preprocessed ?? [:] : [:]
        var idleBands: [Double?: [[[Double]]]] = [:]
        func preprocessor(_ lowPass: Double?) -> Preprocessor {
            Preprocessor(sampleRate: h.fs, channels: h.nChannels, lineFrequency: mains.frequency,
                         lowPass: lowPass, harmonics: mains.harmonics, reference: reference)
        }
        func trials(lowPass: Double?) -> [[[Double]]] {
            if let done = bands[lowPass] { return done }
            bands[lowPass] = dataset.preprocessedTrials(preprocessor(lowPass))
            return bands[lowPass]!
        }
        let labels = dataset.labels.map(Int.init)
        let codes = (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) }
        if let lowPass, selection == nil, lowPass >= h.fs / 2 {
            throw ReconvolutionError.unusableSetting("a low-pass at \(RateText.format(lowPass)) Hz is not below \(RateText.format(h.fs / 2)) Hz, half the rate decoded (\(RateText.format(h.fs)) Hz)")
        }
        let reported = lengths.filter { Int(($0 * h.fs).rounded()) > 0 && Int(($0 * h.fs).rounded()) <= h.nSamples }
        guard !reported.isEmpty else {
            throw ReconvolutionError.notEnoughData("trials of \((Double(h.nSamples) / h.fs * 1000).rounded() / 1000) s, shorter than the shortest length reported (\(lengths.min() ?? 0) s)")
        }
        let lengthSamples = reported.map { Int(($0 * h.fs).rounded()) }
        let chunk = max(1, Int((updateInterval * h.fs).rounded()))
        let clock = ContinuousClock()
        func preprocessedIdle(lowPass: Double?) -> [[[Double]]] {
            guard let idle else { return [] }
            if let done = idleBands[lowPass] { return done }
            idleBands[lowPass] = idle.preprocessedTrials(preprocessor(lowPass))
            return idleBands[lowPass]!
        }
        let idleCodes = idle.map { d in (0..<d.header.nClasses).map { d.stimulus(ofClass: $0) } } ?? []
        var idlePresses = 0
        var idleSeconds = 0.0

        var correct = [Int](repeating: 0, count: lengthSamples.count)
        var perrSum = [Double](repeating: 0, count: lengthSamples.count)
        var tested = 0
        var fitTime = Duration.zero, calibrationTime = Duration.zero, updateTime = Duration.zero
        var updates = 0
        var latencies: [Double] = [], thresholds: [Double] = []
        var presses = 0, rightPresses = 0, pressSeconds = 0.0
        var lastModel: ReconvolutionCCA?
        var choices: [SettingsSelection.Outcome] = []

        for fold in 0..<folds {
            let test = Self.block(fold, of: folds, count: h.nTrials)
            let train = (0..<h.nTrials).filter { !test.contains($0) }
            let start = clock.now
            var candidate = self.candidate
            if let selection {
                let outcome = try selection.select(labels: train.map { labels[$0] }, codes: codes, sampleRate: h.fs) { band in
                    let all = trials(lowPass: band)
                    return train.map { all[$0] }
                }
                candidate = outcome.chosen
                choices.append(outcome.keepingRankings(3))
            }
            let settings = candidate.settings
            let trials = trials(lowPass: candidate.lowPass)
            let model = try ReconvolutionCCA.fit(trials: train.map { trials[$0] }, labels: train.map { labels[$0] },
                                                 codes: codes, sampleRate: h.fs, settings: settings)
            fitTime += clock.now - start
            let calibrationStart = clock.now
            var certainty: CertaintyModel?, threshold = Double.infinity
            if calibratesCertainty {
                (certainty, threshold) = try CalibratedDecoder.calibrate(
                    trials: train.map { trials[$0] }, labels: train.map { labels[$0] }, codes: codes, sampleRate: h.fs,
                    settings: settings, latency: model.latency, folds: calibrationFolds, targetErrorRate: targetErrorRate,
                    idlePressesPerMinute: idlePressesPerMinute, updateInterval: updateInterval)
                thresholds.append(threshold)
            }
            calibrationTime += clock.now - calibrationStart
            latencies.append(model.responseLatency)
            lastModel = model
            let freshScorer = model.scorer(for: codes)     // templates whitened once per fold; copied per trial
            for i in test {
                var scorer = freshScorer
                var position = 0
                var pressed = false
                let n = h.nSamples
                while position < n {
                    let stop = lengthSamples.first { $0 > position } ?? n
                    let end = min(position + chunk, stop)
                    let part = trials[i].map { Array($0[position..<end]) }
                    let before = clock.now
                    scorer.append(part)
                    let scores = scorer.scores()
                    updateTime += clock.now - before
                    updates += 1
                    position = end
                    let best = scores.indices.max { scores[$0] < scores[$1] }!
                    let perr = certainty?.errorProbability(scores: scores, seconds: Double(position) / h.fs) ?? .nan
                    if let j = lengthSamples.firstIndex(of: position) {
                        if best == labels[i] { correct[j] += 1 }
                        perrSum[j] += perr
                    }
                    if !pressed, 1 - perr >= threshold {
                        pressed = true
                        presses += 1
                        if best == labels[i] { rightPresses += 1 }
                        pressSeconds += Double(position) / h.fs
                    }
                }
                tested += 1
            }
            let idleTrials = preprocessedIdle(lowPass: candidate.lowPass)
            if let certainty, !idleTrials.isEmpty {
                let freshIdleScorer = model.scorer(for: idleCodes)
                for trial in idleTrials {
                    var scorer = freshIdleScorer
                    let n = trial.first?.count ?? 0
                    var position = 0
                    while position < n {
                        let end = min(position + chunk, n)
                        scorer.append(trial.map { Array($0[position..<end]) })
                        position = end
                        let perr = certainty.errorProbability(scores: scorer.scores(), seconds: Double(position) / h.fs)
                        if 1 - perr >= threshold { idlePresses += 1; break }
                    }
                    idleSeconds += Double(n) / h.fs
                }
            }
        }
        let rows = lengthSamples.enumerated().map { j, n in
            let seconds = reported[j]
            let accuracy = Double(correct[j]) / Double(tested)
            return EvaluationRow(
                seconds: seconds, accuracy: accuracy,
                itr: InformationTransferRate.bitsPerMinute(classes: h.nClasses, accuracy: accuracy, seconds: seconds),
                predictedError: perrSum[j] / Double(tested), actualError: 1 - accuracy, trials: tested)
        }
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        return EvaluationReport(
            classes: h.nClasses, trials: h.nTrials, channels: h.nChannels, sampleRate: h.fs,
            recordedSampleRate: recorded.header.fs, folds: folds, rows: rows,
            fitSeconds: seconds(fitTime) / Double(folds), calibrationSeconds: seconds(calibrationTime) / Double(folds),
            updateMicroseconds: updates > 0 ? seconds(updateTime) / Double(updates) * 1e6 : 0,
            latencies: latencies, recommendedCertainties: thresholds, targetErrorRate: targetErrorRate,
            idlePressBudget: idlePressesPerMinute,
            spatialPattern: lastModel?.spatialPattern ?? [], kernels: lastModel?.kernels ?? [], kernelStart: lastModel?.latency ?? 0,
            eventLabels: lastModel?.encoder.labels ?? [],
            pressedFraction: Double(presses) / Double(max(1, tested)),
            pressAccuracy: presses > 0 ? Double(rightPresses) / Double(presses) : 0,
            meanPressSeconds: presses > 0 ? pressSeconds / Double(presses) : 0,
            idleMinutes: idleSeconds / 60, idlePresses: idlePresses,
            mainsFrequency: mains.detected ? mains.frequency : nil, choices: choices)
    }

    /// The notch: the given frequency alone, or the mains found in the
    /// dataset's signal with its harmonics, or 50 Hz alone.
    static func mains(_ given: Double?, of dataset: TrialsDataset) -> (frequency: Double, harmonics: Bool, detected: Bool) {
        if let given { return (given, false, false) }
        let h = dataset.header
        let signal: [[Double]]
        if let context = dataset.context {
            signal = (0..<h.nChannels).map(context.channel)
        } else {
            let trials = (0..<h.nTrials).map(dataset.trial)
            signal = (0..<h.nChannels).map { c in trials.flatMap { $0[c] } }
        }
        if let found = MainsDetector.detect(signal, sampleRate: h.fs) { return (found, true, true) }
        return (50, false, false)
    }

    /// The indices of chronological block `index` of `blocks` over `count` trials.
    static func block(_ index: Int, of blocks: Int, count: Int) -> Range<Int> {
        (index * count / blocks)..<((index + 1) * count / blocks)
    }
}
