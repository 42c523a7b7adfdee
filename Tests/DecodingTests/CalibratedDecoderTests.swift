import Foundation
import Testing
@testable import Decoding

/// The calibrated decoder pressing as the engine would: at the recommended certainty.
@Suite struct CalibratedDecoderTests {
    struct Session {
        var trials: [[[Double]]]
        var labels: [Int]
        var codes: [[UInt8]]
    }

    static func session(trials: Int, noiseSeed: UInt64, looksAtTarget: Bool = true) throws -> Session {
        var simulation = DatasetSimulation(classes: 9, trials: trials, seed: 31)
        simulation.noiseSeed = noiseSeed
        simulation.looksAtTarget = looksAtTarget
        let dataset = try simulation.record()
        let pre = Preprocessor(sampleRate: 250, channels: 8)
        return Session(trials: (0..<trials).map { pre.apply(toTrial: dataset.trial($0)) },
                       labels: dataset.labels.map(Int.init),
                       codes: (0..<9).map { dataset.stimulus(ofClass: $0) })
    }

    /// The class pressed in each trial (nil: no press), stepping 100 ms at a time.
    static func presses(_ decoder: CalibratedDecoder, _ session: Session) -> [Int?] {
        session.trials.map { trial in
            var scorer = decoder.scorer(for: session.codes)
            var position = 0
            while position < trial[0].count {
                let end = min(position + 25, trial[0].count)
                scorer.append(trial.map { Array($0[position..<end]) })
                position = end
                let scores = scorer.scores()
                let perr = decoder.certainty.errorProbability(scores: scores, seconds: Double(position) / 250)
                if 1 - perr >= decoder.recommendedCertainty { return scores.indices.max { scores[$0] < scores[$1] } }
            }
            return nil
        }
    }

    @Test func pressesAtTheRecommendedCertaintyAreMostlyRightOnANewSession() throws {
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

    @Test func aUserLookingAtNothingRarelyPresses() throws {
        let calibration = try Self.session(trials: 45, noiseSeed: 1)
        let decoder = try CalibratedDecoder.fit(trials: calibration.trials, labels: calibration.labels,
                                                codes: calibration.codes, sampleRate: 250)
        // 143 trials of 4.2 s: ten minutes of flicker with nobody looking.
        let idle = try Self.session(trials: 143, noiseSeed: 3, looksAtTarget: false)
        let falsePresses = Self.presses(decoder, idle).compactMap { $0 }.count
        #expect(falsePresses <= 1, "\(falsePresses) presses in ten minutes of idle trials")
    }
}
