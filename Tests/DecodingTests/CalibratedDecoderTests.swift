import Foundation
import Simulation
import TestSupport
import Testing
@testable import Decoding

/// The calibrated decoder pressing as the engine would: at the recommended certainty.
@Suite struct CalibratedDecoderTests {
    static func session(trials: Int, noiseSeed: UInt64, looksAtTarget: Bool = true) throws -> PreprocessedSimulation {
        var simulation = DatasetSimulation(classes: 9, trials: trials, seed: 31)
        simulation.noiseSeed = noiseSeed
        simulation.looksAtTarget = looksAtTarget
        return try PreprocessedSimulation(recording: simulation)
    }

    /// The class pressed in each trial (nil: no press), stepping 100 ms at a
    /// time, scoring `shown` classes (default: all).
    static func presses(_ decoder: CalibratedDecoder, _ session: PreprocessedSimulation, shown: [Int]? = nil) -> [Int?] {
        let classes = shown ?? Array(session.codes.indices)
        return session.trials.map { trial in
            var scorer = decoder.scorer(for: classes.map { session.codes[$0] })
            var position = 0
            while position < trial[0].count {
                let end = min(position + 25, trial[0].count)
                scorer.append(trial.map { Array($0[position..<end]) })
                position = end
                let scores = scorer.scores()
                let perr = decoder.certainty.errorProbability(scores: scores, seconds: Double(position) / 250)
                if 1 - perr >= decoder.recommendedCertainty { return classes[scores.indices.max { scores[$0] < scores[$1] }!] }
            }
            return nil
        }
    }

    @Test(.tags(.heavy), .heavyComputation) func pressesAtTheRecommendedCertaintyAreMostlyRightOnANewSession() throws {
        let calibration = try Self.session(trials: 45, noiseSeed: 1)
        let decoder = try CalibratedDecoder.fit(trials: calibration.trials, labels: calibration.labels,
                                                codes: calibration.codes, sampleRate: 250)
        let test = try Self.session(trials: 27, noiseSeed: 2)
        let presses = Self.presses(decoder, test)
        let made = presses.indices.filter { presses[$0] != nil }
        let right = made.filter { presses[$0] == test.labels[$0] }
        #expect(made.count >= 21, "\(made.count) of 27 trials pressed")
        #expect(Double(right.count) >= 0.9 * Double(made.count), "\(right.count) of \(made.count) presses right")
    }

    @Test(.tags(.heavy), .heavyComputation) func aUserLookingAtNothingRarelyPresses() throws {
        let calibration = try Self.session(trials: 45, noiseSeed: 1)
        let decoder = try CalibratedDecoder.fit(trials: calibration.trials, labels: calibration.labels,
                                                codes: calibration.codes, sampleRate: 250)
        // 143 trials of 4.2 s: ten minutes of flicker with nobody looking.
        let idle = try Self.session(trials: 143, noiseSeed: 3, looksAtTarget: false)
        let falsePresses = Self.presses(decoder, idle).compactMap { $0 }.count
        #expect(falsePresses <= 1, "\(falsePresses) presses in ten minutes of idle trials")
    }

    @Test(.tags(.heavy), .heavyComputation) func aCalibrationShowingFewOfItsClassesPerTrialIsCalibratedOnThoseAndStaysQuietWhenNobodyLooks() throws {
        // Each calibration trial showed 3 of the 9 codes (as translated codes do: many classes, few on screen);
        // live trials show 3 codes too.
        let calibration = try Self.session(trials: 45, noiseSeed: 1)
        let shown = calibration.labels.map { label in [label, (label + 3) % 9, (label + 6) % 9].sorted() }
        let decoder = try CalibratedDecoder.fit(trials: calibration.trials, labels: calibration.labels,
                                                codes: calibration.codes, sampleRate: 250, trialClasses: shown)
        let idle = try Self.session(trials: 143, noiseSeed: 3, looksAtTarget: false)
        let falsePresses = Self.presses(decoder, idle, shown: [0, 3, 6]).compactMap { $0 }.count
        #expect(falsePresses <= 1, "\(falsePresses) presses in ten minutes of idle 3-code trials")
        let test = try Self.session(trials: 27, noiseSeed: 2)
        let onScreen = test.labels.map { [$0, ($0 + 3) % 9, ($0 + 6) % 9].sorted() }
        var made = 0, right = 0
        for (i, trial) in test.trials.enumerated() {
            var one = test
            one.trials = [trial]
            one.labels = [test.labels[i]]
            if let pressed = Self.presses(decoder, one, shown: onScreen[i])[0] {
                made += 1
                if pressed == test.labels[i] { right += 1 }
            }
        }
        #expect(made >= 21 && Double(right) >= 0.9 * Double(made), "\(right) of \(made) presses right")
    }

    @Test func classListsThatDoNotFitTheTrialsAreAnError() throws {
        let calibration = try Self.session(trials: 10, noiseSeed: 1)
        #expect(throws: ReconvolutionError.self) {
            try CalibratedDecoder.fit(trials: calibration.trials, labels: calibration.labels, codes: calibration.codes,
                                      sampleRate: 250, trialClasses: [[0, 1]])
        }
        #expect(throws: ReconvolutionError.self) {
            try CalibratedDecoder.fit(trials: calibration.trials, labels: calibration.labels, codes: calibration.codes,
                                      sampleRate: 250, trialClasses: calibration.labels.map { [($0 + 1) % 9, 12] })
        }
    }
}
