/// Chooses how to fit the reference decoder for one person from their
/// calibration alone: every ``FitCandidate`` is cross-validated on the
/// calibration trials (chronological folds, or leave-one-out for 20 trials
/// or fewer; each held-out trial scored by a model that never saw it) for
/// its mean accuracy at ``lengths``. The chosen one is the earliest
/// candidate (the grid lists the simplest first) whose accuracy is within
/// one standard error of the best's (√(a(1−a)/trials)): with ten
/// calibration trials a one-trial lead is noise, and the simpler model is
/// the better bet (the one-standard-error rule of Hastie, Tibshirani &
/// Friedman, The Elements of Statistical Learning, §7.10). The rankings
/// order by accuracy, then by mean margin (the true class's correlation
/// minus the best other's).
/// Candidates that differ only in whitening share one fit per fold, and
/// every candidate of a band shares the fold's EEG sums, so the whole grid
/// costs a few fits per fold. Run inside each outer fold of
/// ``OfflineEvaluation``, it is nested cross-validation.
///
/// ```swift
/// let selection = SettingsSelection()
/// let outcome = try selection.select(labels: y, codes: v, sampleRate: 240) { lowPass in
///     dataset.preprocessedTrials(Preprocessor(sampleRate: 240, channels: 8, lowPass: lowPass))
/// }
/// print(outcome.chosen.summary, outcome.rankings[1].accuracy)
/// ```
public struct SettingsSelection: Sendable {
    /// The candidates, the defaults' first.
    public var candidates = FitCandidate.standardGrid
    /// Chronological folds; with ``leaveOneOutUpTo`` trials or fewer, one per trial.
    public var folds = 5
    /// Up to this many trials, every trial is a fold of its own.
    public var leaveOneOutUpTo = 20
    /// Trial lengths (seconds) whose accuracies are averaged; those longer
    /// than the trials are dropped, and the whole trial is used when none is left.
    public var lengths = [1.0, 2.0, 4.0]

    /// A selection over the standard grid.
    public init() {}

    /// One candidate's cross-validated result.
    public struct Ranking: Sendable, Equatable, Codable {
        /// The candidate.
        public let candidate: FitCandidate
        /// Mean accuracy over the lengths.
        public let accuracy: Double
        /// Mean margin of the true class's correlation over the best other's.
        public let margin: Double
    }

    /// The winner and every candidate's result, best first.
    public struct Outcome: Sendable, Equatable, Codable {
        /// The candidate to fit.
        public let chosen: FitCandidate
        /// Its cross-validated accuracy.
        public let accuracy: Double
        /// The best accuracy of any candidate, and the standard error within which a simpler one was preferred.
        public let best: Double, standardError: Double
        /// Every candidate, best first.
        public let rankings: [Ranking]

        /// The same outcome with only the `count` best rankings, for reports.
        public func keepingRankings(_ count: Int) -> Outcome {
            Outcome(chosen: chosen, accuracy: accuracy, best: best, standardError: standardError, rankings: Array(rankings.prefix(count)))
        }

        /// One line: the choice, its accuracy against the best's, the runners-up.
        public var summary: String {
            let head = "\(chosen.summary) (" + String(format: "%.2f; best %.2f ± %.2f", accuracy, best, standardError) + ")"
            let others = rankings.filter { $0.candidate != chosen }.prefix(2)
                .map { String(format: "%.2f ", $0.accuracy) + $0.candidate.summary }
            return head + (others.isEmpty ? "" : "; runners-up " + others.joined(separator: "; "))
        }
    }

    /// Cross-validates every candidate. `preprocessed(lowPass)` gives the
    /// calibration trials (trials × channels × samples) after the band's
    /// preprocessing; it is called once per band.
    public func select(labels: [Int], codes: [[UInt8]], sampleRate: Double,
                       preprocessed: (Double?) throws -> [[[Double]]]) throws -> Outcome {
        guard !candidates.isEmpty else { throw ReconvolutionError.notEnoughData("no candidate settings to choose from") }
        guard candidates.count > 1 else { return Outcome(chosen: candidates[0], accuracy: .nan, best: .nan, standardError: 0, rankings: []) }
        var correct = [Double](repeating: 0, count: candidates.count)
        var margin = [Double](repeating: 0, count: candidates.count)
        var scored = 0, trialsScored = 0
        var bands: [Double?] = []
        for c in candidates where !bands.contains(c.lowPass) { bands.append(c.lowPass) }
        for band in bands {
            let trials = try preprocessed(band)
            let count = trials.count
            guard count >= 2, let n = trials.first?.first?.count else { throw ReconvolutionError.notEnoughData("\(count) trial(s)") }
            var checkpoints = lengths.map { Int(($0 * sampleRate).rounded()) }.filter { $0 > 0 && $0 <= n }
            if checkpoints.isEmpty { checkpoints = [n] }
            let folds = count <= leaveOneOutUpTo ? count : max(2, min(self.folds, count))
            var tested = 0, testedTrials = 0
            for fold in 0..<folds {
                let test = OfflineEvaluation.block(fold, of: folds, count: count)
                let train = (0..<count).filter { !test.contains($0) }
                guard Set(train.map { labels[$0] }).count >= 2, !test.isEmpty else { continue }
                let trainTrials = train.map { trials[$0] }, trainLabels = train.map { labels[$0] }
                let sums = CovarianceSums(trials: trainTrials, labels: trainLabels)
                // One fit per settings that differ in more than whitening.
                var fitted: [(ReconvolutionSettings, ReconvolutionCCA)] = []
                for (k, candidate) in candidates.enumerated() where candidate.lowPass == band {
                    var unit = candidate.settings
                    unit.whiteningLength = ReconvolutionSettings().whiteningLength
                    let model: ReconvolutionCCA
                    if let found = fitted.first(where: { $0.0 == unit }) { model = found.1 } else {
                        model = try ReconvolutionCCA.fit(trials: trainTrials, labels: trainLabels, codes: codes,
                                                         sampleRate: sampleRate, settings: unit, statistics: sums)
                        fitted.append((unit, model))
                    }
                    let whitening = candidate.settings.whiteningLength > 0 ? model.whitening : .identity
                    let fresh = IncrementalScorer(spatialFilter: model.spatialFilter, templates: model.templates(for: codes),
                                                  whitening: whitening)
                    for i in test {
                        var scorer = fresh
                        var position = 0
                        for end in checkpoints {
                            scorer.append(trials[i].map { Array($0[position..<end]) })
                            position = end
                            let scores = scorer.scores()
                            let truth = scores[labels[i]]
                            let other = scores.indices.filter { $0 != labels[i] }.map { scores[$0] }.max() ?? -1
                            if truth > other { correct[k] += 1 }
                            margin[k] += truth - other
                        }
                    }
                }
                tested += test.count * checkpoints.count
                testedTrials += test.count
            }
            scored = max(scored, tested)
            trialsScored = max(trialsScored, testedTrials)
        }
        guard scored > 0 else { throw ReconvolutionError.notEnoughData("no fold left two classes to train on") }
        let rankings = candidates.indices.map {
            Ranking(candidate: candidates[$0], accuracy: correct[$0] / Double(scored), margin: margin[$0] / Double(scored))
        }
        let order = rankings.indices.sorted { a, b in
            let (x, y) = (rankings[a], rankings[b])
            if x.accuracy != y.accuracy { return x.accuracy > y.accuracy }
            if x.margin != y.margin { return x.margin > y.margin }
            return a < b
        }
        let best = rankings[order[0]].accuracy
        let standardError = (best * (1 - best) / Double(max(1, trialsScored))).squareRoot()
        let chosen = rankings.first { $0.accuracy >= best - standardError - 1e-12 } ?? rankings[order[0]]
        return Outcome(chosen: chosen.candidate, accuracy: chosen.accuracy, best: best, standardError: standardError,
                       rankings: order.map { rankings[$0] })
    }
}
