import Codes
import Foundation
import TestSupport
import Testing
@testable import Decoding

/// Incremental scores, certainty and ITR.
@Suite struct ScoringTests {
    static func randomTrial(channels: Int, samples: Int, seed: UInt64) -> [[Double]] {
        var rng = SeededGenerator(seed: seed)
        return (0..<channels).map { _ in (0..<samples).map { _ in rng.nextGaussian() } }
    }

    @Test func incrementalScoresEqualTheWholeTrialCorrelation() {
        let trial = Self.randomTrial(channels: 3, samples: 500, seed: 1)
        let templates = Self.randomTrial(channels: 4, samples: 500, seed: 2)
        let w = [0.5, -1, 2.0]
        var scorer = IncrementalScorer(spatialFilter: w, templates: templates)
        var start = 0
        for size in [1, 24, 25, 100, 350] {
            scorer.append(trial.map { Array($0[start..<(start + size)]) })
            start += size
            let x = (0..<start).map { i in (0..<3).reduce(0.0) { $0 + w[$1] * trial[$1][i] } }
            for (k, score) in scorer.scores().enumerated() {
                let expected = start < 2 ? 0 : correlation(x, Array(templates[k].prefix(start)))
                #expect(abs(score - expected) < 1e-9)
            }
        }
        #expect(scorer.sampleCount == 500)
    }

    @Test func scoringEveryStepInOnePassGivesTheScoresOfStepwiseAppends() {
        // Whitened, wrapping templates shorter than the trial, a step that does not divide the
        // chunk, and a scorer that has seen samples before: the same numbers to the last bit.
        let trial = Self.randomTrial(channels: 3, samples: 700, seed: 3)
        // Templates of different lengths wrap at different samples.
        let templates = Self.randomTrial(channels: 5, samples: 260, seed: 4).enumerated().map { k, t in Array(t.prefix(260 - 40 * k)) }
        let whitening = PredictionErrorFilter(taps: [1, -0.6, 0.2, 0.05])
        let fresh = IncrementalScorer(spatialFilter: [0.5, -1, 2], templates: templates, whitening: whitening)
        var stepwise = fresh, onePass = fresh
        stepwise.append(trial.map { Array($0[0..<37]) })
        onePass.append(trial.map { Array($0[0..<37]) })
        var expected: [[Double]] = []
        var position = 37
        while position < 700 {
            let end = min(position + 26, 700)
            stepwise.append(trial.map { Array($0[position..<end]) })
            expected.append(stepwise.scores())
            position = end
        }
        let scores = onePass.append(trial.map { Array($0[37...]) }, scoringEvery: 26)
        #expect(scores == expected)
        #expect(scores.count == 26)   // 663 samples: 25 whole steps and the last 13
        #expect(onePass.sampleCount == 700 && onePass.scores() == stepwise.scores())
    }

    @Test func scoresAreNeverNaN() {
        var scorer = IncrementalScorer(spatialFilter: [1], templates: [[0, 0, 0], [1, 2, 3]])
        #expect(scorer.scores() == [0, 0])
        scorer.append([[5, 5, 5]])   // a flat signal has no correlation
        #expect(scorer.scores() == [0, 0])
    }

    @Test func certaintyGrowsWithMarginAndLength() throws {
        // Examples whose correctness depends on the margin, as decoding's does.
        var rng = SeededGenerator(seed: 3)
        var examples: [CertaintyExample] = []
        for _ in 0..<2000 {
            let margin = 0.2 * rng.nextUniform()
            let seconds = 0.5 + 3 * rng.nextUniform()
            let pCorrect = 1 / (1 + exp(-(-2 + 12 * margin * seconds.squareRoot())))
            examples.append(.init(scores: [0.3, 0.3 - margin, 0.1], seconds: seconds, correct: rng.nextUniform() < pCorrect))
        }
        let model = try CertaintyModel.fit(examples)
        let small = model.errorProbability(scores: [0.3, 0.29, 0.1], seconds: 1)
        let large = model.errorProbability(scores: [0.3, 0.1, 0.1], seconds: 1)
        let longer = model.errorProbability(scores: [0.3, 0.29, 0.1], seconds: 4)
        #expect(large < small && longer < small)
        // Calibrated: the mean predicted error matches the examples' error rate.
        let predicted = examples.map { model.errorProbability(scores: $0.scores, seconds: $0.seconds) }.reduce(0, +) / 2000
        let actual = Double(examples.filter { !$0.correct }.count) / 2000
        #expect(abs(predicted - actual) < 0.01)
    }

    /// A few calibration trials can make the short stretches look the
    /// surer ones (here the early updates of trials that happened to be
    /// right); the fit never lets a stretch's shortness raise its certainty,
    /// nor a larger margin or best score lower it.
    @Test func certaintyNeverGrowsAsTheStretchShortens() throws {
        var rng = SeededGenerator(seed: 5)
        var examples: [CertaintyExample] = []
        for _ in 0..<600 {
            let seconds = 0.1 + 2.5 * rng.nextUniform()
            let margin = 0.05 * rng.nextUniform()
            // Right more often the shorter the stretch, whatever the margin.
            examples.append(.init(scores: [0.3, 0.3 - margin, 0.1], seconds: seconds, correct: rng.nextUniform() < 1.1 - 0.3 * seconds))
        }
        let model = try CertaintyModel.fit(examples)
        #expect(model.coefficients[1] >= 0 && model.coefficients[2] >= 0 && model.coefficients[3] <= 0, "\(model.coefficients)")
        let early = model.errorProbability(scores: [0.3, 0.28, 0.1], seconds: 0.1)
        let later = model.errorProbability(scores: [0.3, 0.28, 0.1], seconds: 2)
        #expect(early >= later, "Perr \(early) at 0.1 s, \(later) at 2 s")
    }

    /// Attended trials right after their first few tenths of a second leave
    /// the certainty of a long stretch of noise to guesswork, and the
    /// threshold that keeps noise from pressing lands where the model
    /// guessed. Idle examples (updates of noise, every best class wrong)
    /// teach the model to tell noise from a code the user looks at: at the
    /// threshold that keeps noise equally quiet, attended trials press
    /// sooner, and their mean Perr still equals their error rate.
    @Test func idleExamplesTeachTheCertaintyWhatNoiseLooksLike() throws {
        var rng = SeededGenerator(seed: 11)
        var attended: [[CertaintyExample]] = [], idle: [[CertaintyExample]] = []
        for _ in 0..<10 {
            attended.append((1...42).map { step in
                let seconds = Double(step) / 10
                let early = seconds <= 0.3 && rng.nextUniform() < 0.5        // the early updates, wrong half the time
                let best = early ? 0.15 + 0.05 * rng.nextUniform() : 0.2 + 0.1 * rng.nextUniform()
                let margin = early ? 0.02 * rng.nextUniform() : 0.02 + 0.1 * rng.nextUniform()
                return CertaintyExample(scores: [best, best - margin, 0], seconds: seconds, correct: !early)
            })
            for _ in 0..<12 {      // 10 s of noise: lower best scores, margins of chance
                idle.append((1...100).map { step in
                    let best = 0.1 + 0.05 * rng.nextUniform()
                    return CertaintyExample(scores: [best, best - 0.04 * rng.nextUniform(), 0], seconds: Double(step) / 10, correct: false)
                })
            }
        }
        /// The threshold that keeps noise pressing at most twice in the 120
        /// idle stretches, and the attended trials' mean press time there.
        func pressing(_ model: CertaintyModel) -> (threshold: Double, seconds: Double, idlePresses: Int) {
            func certainty(_ e: CertaintyExample) -> Double { 1 - model.errorProbability(scores: e.scores, seconds: e.seconds) }
            let threshold = CertaintyModel.recommendedThreshold(
                attended: attended.map { $0.map { (certainty($0), $0.correct) } }, idle: idle.map { $0.map(certainty) },
                targetErrorRate: 0.05, idlePressRate: 2.0 / 120)
            let presses = attended.map { trial in trial.first { certainty($0) >= threshold }?.seconds ?? 4.2 }
            let idlePresses = idle.filter { $0.contains { certainty($0) >= threshold } }.count
            return (threshold, presses.reduce(0, +) / Double(presses.count), idlePresses)
        }
        let guessing = try CertaintyModel.fit(attended.flatMap { $0 })
        let taught = try CertaintyModel.fit(attended.flatMap { $0 }, idle: idle.flatMap { $0 })
        let (before, after) = (pressing(guessing), pressing(taught))
        #expect(after.idlePresses <= 2 && before.idlePresses <= 2, "noise presses: \(before.idlePresses) before, \(after.idlePresses) after")
        #expect(after.seconds < 0.8 * before.seconds, "presses after \(before.seconds) s at \(before.threshold), then \(after.seconds) s at \(after.threshold)")
        let examples = attended.flatMap { $0 }
        let predicted = examples.map { taught.errorProbability(scores: $0.scores, seconds: $0.seconds) }.reduce(0, +) / Double(examples.count)
        let actual = Double(examples.filter { !$0.correct }.count) / Double(examples.count)
        #expect(abs(predicted - actual) < 0.01, "attended Perr \(predicted), error rate \(actual)")
        #expect(taught.coefficients[1] >= 0 && taught.coefficients[2] >= 0 && taught.coefficients[3] <= 0, "\(taught.coefficients)")
        // Idle examples alone say nothing of attended trials: no opinion.
        #expect(try CertaintyModel.fit([], idle: idle.flatMap { $0 }).errorProbability(scores: [0.2, 0.1], seconds: 1) == 0.5)
    }

    @Test func recommendedThresholdKeepsObservedAndPredictedErrorsAtTheTarget() {
        // 40 trials turn certain at 0.6 (3 of them wrong), then at 0.97 and 0.999 (all right).
        let attended: [[(certainty: Double, correct: Bool)]] = (0..<40).map { i in
            [(0.6, i >= 3), (0.97, true), (0.999, true)]
        }
        // 3 wrong of 40 (7.5 %) and a predicted 40 % rule out 0.6; at 0.97 the
        // presses are all right and their predicted error is 3 %.
        let strict = CertaintyModel.recommendedThreshold(attended: attended, targetErrorRate: 0.05)
        #expect(strict > 0.6 && strict <= 0.97, "just above the wrong presses: \(strict)")
        // At 2 %, 0.97's predicted 3 % is too many: the next step up presses at 0.999.
        let stricter = CertaintyModel.recommendedThreshold(attended: attended, targetErrorRate: 0.02)
        #expect(stricter > 0.97 && stricter <= 0.999, "above the predicted 3 %: \(stricter)")
    }

    @Test func aSmallCalibrationStillGetsAThresholdItCanReach() {
        // 10 trials, all right once certain: the threshold follows the model's
        // predicted error, not a pseudo-count that 10 presses could never meet.
        let attended: [[(certainty: Double, correct: Bool)]] = (0..<10).map { _ in [(0.8, true), (0.96, true), (0.999, true)] }
        let threshold = CertaintyModel.recommendedThreshold(attended: attended, targetErrorRate: 0.05)
        #expect(threshold > 0.8 && threshold <= 0.96, "\(threshold)")
    }

    @Test func recommendedThresholdStaysAboveIdleCertainty() {
        let attended: [[(certainty: Double, correct: Bool)]] = (0..<40).map { _ in [(0.96, true), (0.9999, true)] }
        // One of ten trials without a target reaches 0.99 by chance.
        let idle: [[Double]] = (0..<10).map { $0 == 0 ? [0.3, 0.99] : [0.4] }
        let threshold = CertaintyModel.recommendedThreshold(attended: attended, idle: idle, targetErrorRate: 0.05)
        #expect(threshold > 0.99 && threshold < 0.9912, "just above the idle certainty: \(threshold)")
        let lenient = CertaintyModel.recommendedThreshold(attended: attended, idle: idle, targetErrorRate: 0.05, idlePressRate: 0.1)
        #expect(lenient <= 0.96, "one idle press in ten is allowed at 10 %: \(lenient)")
    }

    @Test func noThresholdMeetingTheTargetGivesTheCeiling() {
        let attended: [[(certainty: Double, correct: Bool)]] = (0..<40).map { _ in [(0.99, false)] }
        #expect(CertaintyModel.recommendedThreshold(attended: attended, targetErrorRate: 0.05) == 1 - 1e-6)
    }

    @Test func itrMatchesWolpaw() {
        #expect(InformationTransferRate.bitsPerSelection(classes: 2, accuracy: 1) == 1)
        #expect(InformationTransferRate.bitsPerSelection(classes: 9, accuracy: 1 / 9) == 0)
        let bits = log2(32.0) + 0.9 * log2(0.9) + 0.1 * log2(0.1 / 31)
        #expect(abs(InformationTransferRate.bitsPerMinute(classes: 32, accuracy: 0.9, seconds: 2) - bits * 30) < 1e-9)
    }

    /// The certainty's features come from the best score and its margin over
    /// the second: whatever the order of the scores, with ties, negatives,
    /// one score or none.
    @Test func certaintyFeaturesTakeTheTwoBestScores() {
        func bestAndMargin(_ scores: [Double]) -> [Double] {
            let f = CertaintyModel.features(scores: scores, seconds: 4)      // √4 = 2
            return [f[2] / 2, f[1] / 2]
        }
        #expect(bestAndMargin([0.2, 0.9, 0.5]) == [0.9, 0.9 - 0.5])
        #expect(bestAndMargin([0.5, 0.2, 0.5]) == [0.5, 0])
        #expect(bestAndMargin([-0.3, -0.1, -0.2]) == [-0.1, -0.1 - -0.2])
        #expect(bestAndMargin([0.4]) == [0.4, 0.4])
        #expect(bestAndMargin([]) == [0, 0])
    }
}
