import Synchronization
import Foundation
/// Chooses how to fit the reference decoder for one person from their
/// calibration alone: every ``FitCandidate`` is cross-validated on the
/// calibration trials (chronological folds, or leave-one-out for 20 trials
/// or fewer; each held-out trial scored by a model that never saw it) for
/// its mean accuracy at ``lengths`` (the checkpoints of a decoding curve,
/// so a trial's score moves in sixths rather than all or nothing). The
/// chosen one is the earliest candidate (the grid lists the simplest first)
/// whose shortfall against the best, compared trial by trial on the same
/// held-out trials, is within ``simplicityTolerance`` standard errors of
/// that paired difference (the one-standard-error rule of Hastie,
/// Tibshirani & Friedman, The Elements of Statistical Learning, §7.10, at
/// 1); at the default 0 that is the best as ranked: the highest accuracy,
/// then the larger margin (with ten calibration trials many candidates
/// reach 100 %, and the margin tells how surely), then the simpler. The rankings
/// order by accuracy, then by mean margin (the true class's correlation
/// minus the best other's).
/// Candidates that blend averaged responses are left out when no code was
/// shown in two calibration trials (they would score as their twins) and
/// on ``fewestTrialsToBlend`` trials or fewer.
/// Candidates that differ only in whitening share one fit per fold, and
/// every candidate of a band shares the fold's EEG sums, and every
/// candidate of an event definition its structure covariances, so the
/// whole grid costs a few fits per fold. Run inside each outer fold of
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
    public var lengths = [0.5, 1, 1.5, 2, 3, 4]
    /// How far (in standard errors of the paired per-trial difference) an
    /// earlier, simpler candidate may fall short of the best and still be
    /// chosen: 0 chooses the best (ties by margin, then to the simpler), 1 is the
    /// one-standard-error rule. Benchmarks/ACCURACY.md compares 0,
    /// 0.5 and 1 on every real set: 0 did as well as the others at 1 s and
    /// 2 s on average.
    public var simplicityTolerance = 0.0
    /// Up to this many trials, the candidates that blend averaged responses
    /// are left out: each average would rest on two or three trials of a
    /// code, and the selection (leave-one-out) would weigh twice the
    /// candidates on them (on 10 trials a larger grid cost the MindAffect
    /// session accuracy, Benchmarks/ACCURACY.md). Zero training's interim
    /// fits, on 3 to 10 learned trials, are the case in point.
    public var fewestTrialsToBlend = 20

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
        /// The best accuracy of any candidate, and the standard error of the
        /// chosen one's paired shortfall against it (0 when it is the best).
        public let best: Double, standardError: Double
        /// Every candidate, best first.
        public let rankings: [Ranking]

        /// The same outcome with only the `count` best rankings, for reports.
        public func keepingRankings(_ count: Int) -> Outcome {
            Outcome(chosen: chosen, accuracy: accuracy, best: best, standardError: standardError, rankings: Array(rankings.prefix(count)))
        }

        /// One line: the choice, its cross-validated accuracy (against the
        /// best's, with the standard error of the shortfall, when a simpler
        /// candidate was preferred), the runners-up.
        public var summary: String {
            let score = accuracy >= best || !best.isFinite
                ? String(format: "%.2f cross-validated, the best", accuracy)
                : String(format: "%.2f cross-validated; the best %.2f, %.2f ± %.2f more", accuracy, best, best - accuracy, standardError)
            let head = "\(chosen.summary) (\(score))"
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
        var bands: [Double?] = []
        for c in candidates where !bands.contains(c.lowPass) { bands.append(c.lowPass) }
        let bandTrials = try bands.map { try preprocessed($0) }
        let count = labels.count
        guard count >= 2, bandTrials.allSatisfy({ $0.count == count }), let n = bandTrials.first?.first?.first?.count else {
            throw ReconvolutionError.notEnoughData("\(count) trial(s)")
        }
        var checkpoints = lengths.map { Int(($0 * sampleRate).rounded()) }.filter { $0 > 0 && $0 <= n }
        if checkpoints.isEmpty { checkpoints = [n] }
        let folds = count <= leaveOneOutUpTo ? count : max(2, min(self.folds, count))
        // Every (band, fold) is scored on its own, two at a time on two cores; merged in order after.
        let jobs = bands.indices.flatMap { b in (0..<folds).map { (band: b, fold: $0) } }
        let results = Mutex<[Result<FoldScores, Error>?]>(Array(repeating: nil, count: jobs.count))
        // With no code shown in two trials there is no average to blend, and a blending
        // candidate would score exactly as its twin without (the engine's calibrations
        // translate the codes from trial to trial): those are left out.
        let shownTwice = Dictionary(labels.map { (Array(codes[$0].prefix(n)), 1) }, uniquingKeysWith: +).values
            .contains { $0 >= ReconvolutionCCA.minimumTrialsPerAverage }
        let candidates = shownTwice && count > fewestTrialsToBlend ? self.candidates : self.candidates.filter { $0.settings.templateBlend == 0 }
        let bandList = bands, marks = checkpoints
        DispatchQueue.concurrentPerform(iterations: jobs.count) { j in
            let job = jobs[j]
            let outcome = Result {
                try Self.score(candidates: candidates.indices.filter { candidates[$0].lowPass == bandList[job.band] }, of: candidates,
                               trials: bandTrials[job.band], labels: labels, codes: codes, sampleRate: sampleRate,
                               test: OfflineEvaluation.block(job.fold, of: folds, count: count), checkpoints: marks)
            }
            results.withLock { $0[j] = outcome }
        }
        var correct = [Double](repeating: 0, count: candidates.count)
        var margin = [Double](repeating: 0, count: candidates.count)
        // Per candidate, each held-out trial's accuracy over the checkpoints, in the order tested.
        var perTrial = [[Double]](repeating: [], count: candidates.count)
        var testedPerBand = [Int](repeating: 0, count: bands.count)
        for (j, result) in results.withLock({ $0 }).enumerated() {
            guard let scores = try result?.get() else { continue }
            for (k, value) in scores.correct { correct[k] += value }
            for (k, value) in scores.margin { margin[k] += value }
            for (k, values) in scores.perTrial { perTrial[k] += values }
            testedPerBand[jobs[j].band] += scores.tested
        }
        let scored = testedPerBand.max() ?? 0
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
        // The earliest candidate whose shortfall against the best, trial by trial on the same
        // held-out trials, is within `simplicityTolerance` standard errors of that paired
        // difference; at 0, the best as ranked (accuracy, then margin).
        let top = order[0]
        var chosenIndex = top, chosenError = 0.0
        for k in candidates.indices where k <= top && simplicityTolerance > 0 {
            let differences = zip(perTrial[top], perTrial[k]).map { $0 - $1 }
            let count = Double(max(1, differences.count))
            let mean = differences.reduce(0, +) / count
            let variance = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / max(1, count - 1)
            let error = (variance / count).squareRoot()
            if mean <= simplicityTolerance * error + 1e-12 { chosenIndex = k; chosenError = error; break }
        }
        let chosen = rankings[chosenIndex]
        return Outcome(chosen: chosen.candidate, accuracy: chosen.accuracy, best: rankings[top].accuracy, standardError: chosenError,
                       rankings: order.map { rankings[$0] })
    }

    /// One fold's scores: per candidate index, right answers and margins
    /// summed over its held-out trials and checkpoints, and each trial's accuracy.
    struct FoldScores: Sendable {
        var correct: [Int: Double] = [:]
        var margin: [Int: Double] = [:]
        var perTrial: [Int: [Double]] = [:]
        var tested = 0
    }

    /// Fits the `indices` candidates (one band) on the trials outside `test`
    /// and scores them on `test`; empty when the training trials hold one class.
    static func score(candidates indices: [Int], of candidates: [FitCandidate], trials: [[[Double]]], labels: [Int],
                      codes: [[UInt8]], sampleRate: Double, test: Range<Int>, checkpoints: [Int]) throws -> FoldScores {
        var out = FoldScores()
        let train = trials.indices.filter { !test.contains($0) }
        guard Set(train.map { labels[$0] }).count >= 2, !test.isEmpty else { return out }
        let trainTrials = train.map { trials[$0] }, trainLabels = train.map { labels[$0] }
        let sums = CovarianceSums(trials: trainTrials, labels: trainLabels)
        // The structure covariances once per event definition, over every lag its candidates model.
        let n = trainTrials[0][0].count
        var structures: [EventDefinition: StructureCovariances] = [:]
        for event in Set(indices.map { candidates[$0].settings.event }) {
            let spans = indices.filter { candidates[$0].settings.event == event }
                .map { ReconvolutionCCA.lags(of: candidates[$0].settings, sampleRate: sampleRate, measuringLatency: false) }
            let lags = (spans.map(\.lowerBound).min() ?? 0)..<(spans.map(\.upperBound).max() ?? 0)
            let encoder = EventEncoder(definition: event, fitting: codes.map { Array($0.prefix(n)) })
            structures[event] = StructureCovariances(sums, codes: codes, encoder: encoder, n: n,
                                                     firstLag: lags.lowerBound, lagCount: lags.count)
        }
        // One fit per settings that differ in more than whitening and the template blend,
        // and one scorer per fit and whitening: candidates that differ only in their blend
        // differ only in their templates, so one pass over each trial's EEG scores them all.
        var fitted: [(settings: ReconvolutionSettings, model: ReconvolutionCCA, averaged: Bool)] = []
        var groups: [(fit: Int, whitening: Double, members: [Int])] = []
        for k in indices {
            let candidate = candidates[k]
            var unit = candidate.settings
            unit.whiteningLength = ReconvolutionSettings().whiteningLength
            unit.templateBlend = 0
            let f: Int
            if let found = fitted.firstIndex(where: { $0.settings == unit }) { f = found } else {
                let model = try ReconvolutionCCA.fit(trials: trainTrials, labels: trainLabels, codes: codes,
                                                     sampleRate: sampleRate, settings: unit, statistics: sums,
                                                     structure: structures[unit.event])
                fitted.append((unit, model, false))
                f = fitted.count - 1
            }
            if candidate.settings.templateBlend > 0, !fitted[f].averaged {
                // The averages once per fit, and only for fits that some candidate blends.
                fitted[f].model.averagedResponses = fitted[f].model.averages(trials: trainTrials, labels: trainLabels, codes: codes)
                fitted[f].averaged = true
            }
            let whitening = candidate.settings.whiteningLength
            if let g = groups.firstIndex(where: { $0.fit == f && $0.whitening == whitening }) {
                groups[g].members.append(k)
            } else {
                groups.append((f, whitening, [k]))
            }
        }
        let classes = codes.count
        for group in groups {
            let model = fitted[group.fit].model
            let predicted = model.templates(for: codes, blend: 0), averages = model.averages(of: codes)
            let templates = group.members.flatMap { model.blending(predicted, with: averages, by: candidates[$0].settings.templateBlend) }
            let fresh = IncrementalScorer(spatialFilter: model.spatialFilter, templates: templates,
                                          whitening: group.whitening > 0 ? model.whitening : .identity)
            for i in test {
                var scorer = fresh
                var position = 0
                var right = [Double](repeating: 0, count: group.members.count)
                for end in checkpoints {
                    scorer.append(trials[i].map { Array($0[position..<end]) })
                    position = end
                    let all = scorer.scores()
                    for (m, k) in group.members.enumerated() {
                        let scores = all[(m * classes)..<((m + 1) * classes)]
                        let truth = scores[scores.startIndex + labels[i]]
                        var other = -1.0
                        for (c, score) in scores.enumerated() where c != labels[i] { other = max(other, score) }
                        if truth > other { right[m] += 1 }
                        out.margin[k, default: 0] += truth - other
                    }
                }
                for (m, k) in group.members.enumerated() {
                    out.correct[k, default: 0] += right[m]
                    out.perTrial[k, default: []].append(right[m] / Double(checkpoints.count))
                }
            }
        }
        out.tested = test.count * checkpoints.count
        return out
    }
}
