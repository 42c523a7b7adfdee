import Decoding
import Foundation
import Simulation
import TestSupport
import Testing

/// Zero training on the simulator: labels learned without being told, a
/// certainty that needs no calibration and holds back when nothing can be
/// learned, and the hand-over to the supervised decoder.
@Suite struct ZeroTrainingTests {
    static func simulated(classes: Int, trials: Int, seed: UInt64, snr: Double? = nil) throws -> TrialsDataset {
        var simulation = DatasetSimulation(classes: classes, trials: trials, seed: seed)
        if let snr { simulation.settings.snr = snr }
        return try simulation.record()
    }

    @Test func studentTailsMatchTheTables() {
        #expect(abs(StudentT.upperTail(0, degreesOfFreedom: 5) - 0.5) < 1e-12)
        #expect(abs(StudentT.upperTail(2.0, degreesOfFreedom: 10) - 0.036694) < 1e-5)
        #expect(abs(StudentT.upperTail(2.998, degreesOfFreedom: 7) - 0.01) < 1e-4)       // t₀.₉₉(7)
        #expect(abs(StudentT.upperTail(-1.5, degreesOfFreedom: 3) - (1 - StudentT.upperTail(1.5, degreesOfFreedom: 3))) < 1e-12)
        #expect(StudentT.upperTail(.nan, degreesOfFreedom: 3).isNaN)
    }

    @Test func theCalibrationFreeCertaintyNeedsAClearWinnerAmongEnoughCodes() {
        let flat = [Double](repeating: 0.3, count: 9)
        #expect(ZeroTrainingLearner.errorProbability(scores: flat) == 1)
        #expect(ZeroTrainingLearner.errorProbability(scores: [0.9, 0.1]) == 1, "two codes give no spread to judge by")
        #expect(ZeroTrainingLearner.errorProbability(scores: [0.3, .nan, 0.2, 0.1]) == 1)
        let others = [0.30, 0.31, 0.29, 0.32, 0.28, 0.30, 0.31, 0.29]
        let clear = ZeroTrainingLearner.errorProbability(scores: others + [0.45])
        let close = ZeroTrainingLearner.errorProbability(scores: others + [0.33])
        #expect(clear < 0.001)
        #expect(close > 0.2)
        // The same margin among fewer codes is less certain (fewer values to judge the spread by).
        let few = ZeroTrainingLearner.errorProbability(scores: Array(others.prefix(3)) + [0.45])
        #expect(few > clear)
    }

    @Test(.tags(.heavy), .heavyComputation) func theLearnerFindsWhatTheUserLookedAtWithoutBeingTold() throws {
        let dataset = try Self.simulated(classes: 9, trials: 13, seed: 11)
        let h = dataset.header
        let trials = dataset.preprocessedTrials(Preprocessor(sampleRate: h.fs, channels: h.nChannels))
        let codes = (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) }
        var learner = ZeroTrainingLearner(sampleRate: h.fs, channels: h.nChannels)
        for trial in trials.prefix(12) { learner.add(trial, codes: codes) }
        let right = zip(learner.labels, dataset.labels).filter { $0 == Int($1) }.count
        #expect(right >= 11, "learned \(learner.labels), looked at \(dataset.labels.prefix(12))")
        let scores = learner.hypothesisScores(trials[12], codes: codes)
        #expect(scores.indices.max { scores[$0] < scores[$1] } == Int(dataset.labels[12]))
        #expect(ZeroTrainingLearner.errorProbability(scores: scores) < 0.01)
        // What cannot be learned is left out: another channel count, NaN samples.
        #expect(learner.add([[0, 1, 2]], codes: codes).isEmpty && learner.trials.count == 12)
        var bad = trials[0]
        bad[0][5] = .nan
        learner.add(bad, codes: codes)
        #expect(learner.trials.count == 12)
    }

    @Test(.tags(.heavy), .heavyComputation) func aStrongAlphaRhythmDoesNotDecideTheLabels() throws {
        // Simulated subject 5 at 36 codes: its alpha outweighs its visual response, and among 36 codes one per
        // trial lines its edges up with the rhythm. Unwhitened, that wrong labelling explains the trials better
        // than the true one and every label stays wrong; each channel whitened over its own trial, it does not.
        let dataset = try Self.simulated(classes: 36, trials: 10, seed: 5)
        let h = dataset.header
        let trials = dataset.preprocessedTrials(Preprocessor(sampleRate: h.fs, channels: h.nChannels))
        let codes = (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) }
        func learned(whitening: Double) -> Int {
            var settings = ZeroTrainingLearner.defaultSettings
            settings.whiteningLength = whitening
            var learner = ZeroTrainingLearner(sampleRate: h.fs, channels: h.nChannels, settings: settings)
            for trial in trials { learner.add(trial, codes: codes) }
            return zip(learner.labels, dataset.labels).filter { $0 == Int($1) }.count
        }
        #expect(learned(whitening: ZeroTrainingLearner.defaultSettings.whiteningLength) >= 9)
        #expect(learned(whitening: 0) <= 3, "the case this guards against: unwhitened, the rhythm decides")
    }

    @Test(.tags(.heavy), .heavyComputation) func aZeroTrainingSessionTypesFromTheFirstTrialAndHandsOver() throws {
        let dataset = try Self.simulated(classes: 9, trials: 18, seed: 4)
        var evaluation = ZeroTrainingEvaluation()
        evaluation.selection = nil
        let outcome = try evaluation.run(dataset)
        #expect(outcome.trials.count == 18)
        #expect(outcome.trials.prefix(10).allSatisfy { $0.phase == .zeroTraining })
        #expect(outcome.trials.dropFirst(10).allSatisfy { $0.phase == .supervised })
        #expect(outcome.wrongPresses(to: 10) <= 1)
        #expect(outcome.trials.prefix(10).filter { $0.selected == $0.target }.count >= 7)
        #expect(outcome.trials.prefix(2).compactMap(\.seconds).allSatisfy { $0 >= ZeroTrainingLearner.minimumSeconds - 1e-9 },
                "no unsupervised press before a second of EEG")
        #expect(outcome.learnedLabelAccuracy >= 0.9)
        #expect(outcome.classificationAccuracy(from: 10) >= 0.9)
        #expect(outcome.accuracy(from: 10) >= 0.85)
        let data = try JSONEncoder().encode(outcome.trials)
        #expect(try JSONDecoder().decode([ZeroTrainingOutcome.Trial].self, from: data) == outcome.trials, "nulls read back as no press")
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"trial\":1,") || json.contains("\"trial\":1}"))
    }

    @Test(.tags(.heavy), .heavyComputation) func aHandOverWithTooLittleToFitWaitsLearningAndSaysWhy() throws {
        // Two learned trials of two classes: the certainty's inner folds hold one class each, so no supervised fit.
        let dataset = try Self.simulated(classes: 9, trials: 12, seed: 4)
        var evaluation = ZeroTrainingEvaluation()
        evaluation.selection = nil
        evaluation.zeroTrainTrials = 2
        let outcome = try evaluation.run(dataset)
        #expect(outcome.fitProblems.first?.hasPrefix("after trial 2: no supervised fit on 2 labelled trials: ") == true,
                "\(outcome.fitProblems)")
        // The learner learned on until a fit came, and the trials it decoded are the unsupervised ones, first.
        let unsupervised = outcome.trials.prefix { $0.phase == .zeroTraining }.count
        // One hand-over tried after each learned trial from the second: one problem each until the one that fits.
        #expect(unsupervised == outcome.learnedLabels.count && unsupervised > 2
                && unsupervised == evaluation.zeroTrainTrials + outcome.fitProblems.count, "\(outcome.fitProblems)")
        #expect(outcome.trials.dropFirst(unsupervised).allSatisfy { $0.phase == .supervised })
    }

    @Test(.tags(.heavy), .heavyComputation) func whenNothingCanBeLearnedTheCertaintyHoldsPressesBack() throws {
        let dataset = try Self.simulated(classes: 9, trials: 16, seed: 5, snr: 0.002)
        var evaluation = ZeroTrainingEvaluation()
        evaluation.selection = nil
        evaluation.zeroTrainTrials = 16
        let outcome = try evaluation.run(dataset)
        #expect(outcome.wrongPresses() <= 1, "\(outcome.trials.map { ($0.target, $0.selected ?? -1) })")
        #expect(outcome.trials.filter { $0.selected == nil }.count >= 12)
    }
}
