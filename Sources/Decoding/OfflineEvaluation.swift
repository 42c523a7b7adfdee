import Foundation

/// Cross-validates the reference decoder on a trials dataset, as it would
/// run live: preprocessing, a reconvolution CCA fit per fold, a certainty
/// model calibrated by inner cross-validation on the fold's training trials
/// only, then incremental scoring of each test trial in `updateInterval`
/// steps, read out at each of `lengths`.
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
    /// Mains frequency for the notch.
    public var lineFrequency = 50.0
    /// The model's settings.
    public var settings = ReconvolutionSettings()

    /// An evaluation with the defaults (5 folds; 0.5, 1, 2, 4 s; 100 ms updates).
    ///
    /// ```swift
    /// var evaluation = OfflineEvaluation()
    /// evaluation.lengths = [1, 2]
    /// ```
    public init() {}

    /// Runs the evaluation.
    ///
    /// ```swift
    /// let report = try OfflineEvaluation().run(dataset)
    /// ```
    public func run(_ dataset: TrialsDataset) throws -> EvaluationReport {
        let h = dataset.header
        guard h.nTrials >= folds, folds >= 2 else {
            throw ReconvolutionError.notEnoughData("\(h.nTrials) trials for \(folds) folds")
        }
        let pre = Preprocessor(sampleRate: h.fs, channels: h.nChannels, lineFrequency: lineFrequency)
        let trials = (0..<h.nTrials).map { pre.apply(toTrial: dataset.trial($0)) }
        let labels = dataset.labels.map(Int.init)
        let codes = (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) }
        let lengthSamples = lengths.map { Int(($0 * h.fs).rounded()) }.filter { $0 > 0 && $0 <= h.nSamples }
        let chunk = max(1, Int((updateInterval * h.fs).rounded()))
        let clock = ContinuousClock()

        var correct = [Int](repeating: 0, count: lengthSamples.count)
        var perrSum = [Double](repeating: 0, count: lengthSamples.count)
        var tested = 0
        var fitTime = Duration.zero, calibrationTime = Duration.zero, updateTime = Duration.zero
        var updates = 0
        var latencies: [Double] = [], thresholds: [Double] = []
        var lastModel: ReconvolutionCCA?

        for fold in 0..<folds {
            let test = Self.block(fold, of: folds, count: h.nTrials)
            let train = (0..<h.nTrials).filter { !test.contains($0) }
            let start = clock.now
            let model = try ReconvolutionCCA.fit(trials: train.map { trials[$0] }, labels: train.map { labels[$0] },
                                                 codes: codes, sampleRate: h.fs, settings: settings)
            fitTime += clock.now - start
            let calibrationStart = clock.now
            let (certainty, threshold) = try calibrate(trials: train.map { trials[$0] }, labels: train.map { labels[$0] },
                                                       codes: codes, sampleRate: h.fs, latency: model.latency, chunk: chunk)
            calibrationTime += clock.now - calibrationStart
            latencies.append(model.latency)
            thresholds.append(threshold)
            lastModel = model
            let templates = model.templates(for: codes)
            for i in test {
                var scorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: templates)
                var position = 0
                for (j, target) in lengthSamples.enumerated() {
                    while position < target {
                        let end = min(position + chunk, target)
                        let part = trials[i].map { Array($0[position..<end]) }
                        let before = clock.now
                        scorer.append(part)
                        let scores = scorer.scores()
                        updateTime += clock.now - before
                        updates += 1
                        position = end
                        if position == target {
                            let best = scores.indices.max { scores[$0] < scores[$1] }!
                            if best == labels[i] { correct[j] += 1 }
                            perrSum[j] += certainty.errorProbability(scores: scores, seconds: Double(target) / h.fs)
                        }
                    }
                }
                tested += 1
            }
        }
        let rows = lengthSamples.enumerated().map { j, n in
            let seconds = Double(n) / h.fs
            let accuracy = Double(correct[j]) / Double(tested)
            return EvaluationRow(
                seconds: seconds, accuracy: accuracy,
                itr: InformationTransferRate.bitsPerMinute(classes: h.nClasses, accuracy: accuracy, seconds: seconds),
                predictedError: perrSum[j] / Double(tested), actualError: 1 - accuracy, trials: tested)
        }
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        return EvaluationReport(
            classes: h.nClasses, trials: h.nTrials, channels: h.nChannels, sampleRate: h.fs, folds: folds, rows: rows,
            fitSeconds: seconds(fitTime) / Double(folds), calibrationSeconds: seconds(calibrationTime) / Double(folds),
            updateMicroseconds: updates > 0 ? seconds(updateTime) / Double(updates) * 1e6 : 0,
            latencies: latencies, recommendedCertainties: thresholds, targetErrorRate: targetErrorRate,
            spatialPattern: lastModel?.spatialPattern ?? [], kernels: lastModel?.kernels ?? [],
            eventLabels: lastModel?.encoder.labels ?? [])
    }

    /// Inner chronological cross-validation on training trials only: every
    /// update of every held-out trial becomes a certainty example.
    private func calibrate(trials: [[[Double]]], labels: [Int], codes: [[UInt8]], sampleRate: Double,
                           latency: Double, chunk: Int) throws -> (CertaintyModel, Double) {
        var inner = settings
        inner.fixedLatency = latency
        var examples: [CertaintyModel.Example] = []
        var trajectories: [[(scores: [Double], seconds: Double, correct: Bool)]] = []
        let innerFolds = min(calibrationFolds, trials.count)
        for fold in 0..<innerFolds {
            let test = Self.block(fold, of: innerFolds, count: trials.count)
            let train = (0..<trials.count).filter { !test.contains($0) }
            guard Set(train.map { labels[$0] }).count >= 2 else { continue }
            let model = try ReconvolutionCCA.fit(trials: train.map { trials[$0] }, labels: train.map { labels[$0] },
                                                 codes: codes, sampleRate: sampleRate, settings: inner)
            let templates = model.templates(for: codes)
            for i in test {
                var scorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: templates)
                var trajectory: [(scores: [Double], seconds: Double, correct: Bool)] = []
                var position = 0
                let n = trials[i][0].count
                while position < n {
                    let end = min(position + chunk, n)
                    scorer.append(trials[i].map { Array($0[position..<end]) })
                    position = end
                    let scores = scorer.scores()
                    let best = scores.indices.max { scores[$0] < scores[$1] }!
                    let step = (scores, Double(position) / sampleRate, best == labels[i])
                    examples.append(CertaintyModel.Example(scores: step.0, seconds: step.1, correct: step.2))
                    trajectory.append(step)
                }
                trajectories.append(trajectory)
            }
        }
        let certainty = try CertaintyModel.fit(examples)
        let threshold = CertaintyModel.recommendedThreshold(
            trajectories.map { $0.map { (1 - certainty.errorProbability(scores: $0.scores, seconds: $0.seconds), $0.correct) } },
            targetErrorRate: targetErrorRate)
        return (certainty, threshold)
    }

    /// The indices of chronological block `index` of `blocks` over `count` trials.
    static func block(_ index: Int, of blocks: Int, count: Int) -> Range<Int> {
        (index * count / blocks)..<((index + 1) * count / blocks)
    }
}
