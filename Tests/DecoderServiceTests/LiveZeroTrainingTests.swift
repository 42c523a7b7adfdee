import Decoding
import DecoderService
import Foundation
import Simulation
import TestSupport
import Testing
import UtopiaProtocol

/// The live decoder without a calibration: it predicts from the first
/// prediction trial, learns each finished trial without labels, says when
/// it believes an earlier trial meant another object, and hands over to
/// the supervised decoder fitted on what it learned.
@Suite struct LiveZeroTrainingTests {
    static let goals: [UInt8] = [3, 7, 1, 9, 5, 2, 8, 4, 6]

    static func settings() -> DecoderServerSettings {
        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.05, seed: 3, gaze: .goals(goals))
        settings.zeroTrainTrials = 5
        return settings
    }

    @Test(.tags(.heavy), .heavyComputation) func itTypesWithoutCalibrationLearnsAndHandsOver() throws {
        var session = VirtualSession(settings: Self.settings(), objects: 9)
        session.mode("Prediction.static")
        session.wait(5_000)       // the signal check: the filters settle before the first trial
        var lastPredictions: [Int8] = []
        var firstPredictionTimes: [Double] = []
        for t in 0..<7 {
            let before = session.sent.count
            let trialStart = session.now
            // The first ZeroTrain trial lasts until a sure press (maxDurationFirstZeroTrainClick), the others less.
            session.trial(seconds: t == 0 ? 8 : 4)
            let predictions = session.predictions(from: before)
            #expect(predictions.allSatisfy { $0.errorProbability.isFinite && (0...1).contains($0.errorProbability) })
            if let last = predictions.last { lastPredictions.append(last.objID) }
            if t < 2 { firstPredictionTimes.append(Double(predictions.first?.timestamp ?? 0) - trialStart) }
        }
        // Before an interim model exists (two learned trials), predictions only once a trial
        // holds a second of EEG (0.5 s of it is the cue).
        #expect(firstPredictionTimes.allSatisfy { $0 >= 1_000 + 500 - 20 }, "\(firstPredictionTimes)")
        #expect(zip(lastPredictions, Self.goals).filter { $0 == Int8($1) }.count >= 6, "\(lastPredictions) \(session.logs().filter { $0.contains("zero") })")
        let logs = session.logs()
        #expect(logs.contains { $0.contains("zero training: trial 1 of 5 learned") })
        #expect(logs.contains { $0.contains("5 trials learned; fitting the supervised decoder on their labels") })
        let model = try #require(session.decoder.model, "the hand-over fitted a supervised model")
        // The simulated 40 ms, as the chosen band sees it: a 30 Hz low-pass (4th-order
        // Butterworth) delays the response's low frequencies by 2.61 / (2π · 30 Hz) ≈ 14 ms.
        let delay = model.lowPass == 30 ? 2.613 / (2 * Double.pi * 30) : 0
        #expect(abs(model.model.responseLatency - 0.040 - delay) <= 0.008, "band \(String(describing: model.lowPass))")
        #expect(session.sent.contains { if case .certaintyThreshold = $0 { return true } else { return false } })
    }

    @Test(.tags(.heavy), .heavyComputation) func aPressTheLearnerDisagreesWithIsRevisedForTheEngine() throws {
        var session = VirtualSession(settings: Self.settings(), objects: 9)
        session.mode("Prediction.static")
        session.wait(5_000)       // the signal check: the filters settle before the first trial
        let wrong = Self.goals[0] % 9 + 1
        let firstStamp = session.stamp
        session.trial(seconds: 8, pressing: wrong)
        session.trial(seconds: 1.2)
        let revisions = session.sent.compactMap { if case .selectionRevised(let r) = $0 { return r } else { return nil } }
        let first = try #require(revisions.first { $0.trialStamp == firstStamp }, "\(session.logs())")
        #expect(first.objID == Self.goals[0])
        #expect(!revisions.contains { $0.trialStamp != firstStamp && $0.objID == wrong })
    }

    @Test(.tags(.heavy), .heavyComputation) func aResetForgetsWhatWasLearned() {
        var session = VirtualSession(settings: Self.settings(), objects: 9)
        session.mode("Prediction.static")
        session.wait(5_000)       // the signal check: the filters settle before the first trial
        session.trial(seconds: 4)
        session.trial(seconds: 1.2)
        #expect(session.logs().contains { $0.contains("zero training: trial 1 of 5 learned") })
        session.send(.reset(Reset(timestamp: session.stamp)))
        let before = session.sent.count
        session.trial(seconds: 4)
        session.trial(seconds: 1.2)
        #expect(session.logs(from: before).contains { $0.contains("zero training: trial 1 of 5 learned") })
    }

    @Test(.tags(.heavy), .heavyComputation) func aPredictionTrialEndingWhileTheCalibrationIsFittedWaitsForTheModel() throws {
        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.1, seed: 3, gaze: .target)
        var session = VirtualSession(settings: settings, objects: 4)
        session.mode("Calibration.supervised")
        session.wait(3_000)
        for t in 0..<8 { session.trial(seconds: 2.5, cued: t % 4 + 1) }
        session.holdsFits = true
        session.mode("Prediction.static")
        let before = session.sent.count
        session.wait(3_500)                       // the fit is assembled and taken, still running
        #expect(session.heldFits.count == 1)
        session.trial(seconds: 4)                 // a prediction trial ends before the model is there
        session.trial(seconds: 1.2)
        // No guesses without labels while the cued calibration is being fitted, and nothing learned from them.
        #expect(session.predictions(from: before).isEmpty)
        #expect(!session.logs(from: before).contains { $0.contains("zero training") || $0.contains("learning without labels") },
                "\(session.logs(from: before))")
        session.sent += session.decoder.adopt(session.heldFits.removeFirst().run(), now: session.now)
        let adopted = session.sent.count
        session.trial(seconds: 3)
        #expect(!session.predictions(from: adopted).isEmpty)
        #expect(!session.logs(from: before).contains { $0.contains("zero training") })
    }

    /// An interim fit that arrives during a trial the learner opened, after
    /// the learner's first prediction of it, scores the next trial: the
    /// engine holds that trial to the threshold in force at its first
    /// prediction, before the fit recommended its own, and the learner's
    /// certainties are on the scale it was set for. One that arrives before
    /// the learner has said anything (it waits for a second of flicker)
    /// scores the trial itself, its CERTAINTYTHRESHOLD ahead of every
    /// prediction of the trial.
    @Test(.tags(.heavy), .heavyComputation) func anInterimFitArrivingMidTrialLeavesTheTrialToTheLearner() throws {
        /// Trial 4's messages and predictions and trial 5's, the first interim fit (on three learned trials,
        /// requested when trial 3 closes, as trial 4 opens; two trials leave a fold without two classes)
        /// adopted `delay` ms after trial 4 opens.
        func fourthTrial(adoptingAfter delay: Double)
            -> (during: [PredictedTargetProb], next: [PredictedTargetProb], fitted: Bool, messages: [UtopiaMessage]) {
            var session = VirtualSession(settings: Self.settings(), objects: 9)
            session.mode("Prediction.static")
            session.wait(5_000)
            session.holdsFits = true
            session.trial(seconds: 4)
            session.trial(seconds: 2)
            session.trial(seconds: 2)
            session.adoptsHeldFitsAt = session.now + delay
            let before = session.sent.count
            session.trial(seconds: 3)
            let next = session.sent.count
            session.adoptsHeldFitsAt = session.now
            session.trial(seconds: 2)
            let fourth = session.predictions(from: before), fifth = session.predictions(from: next)
            let fitted = session.sent[before..<next].contains { if case .certaintyThreshold = $0 { return true } else { return false } }
            return (Array(fourth.dropLast(fifth.count)), fifth, fitted, Array(session.sent[before..<next]))
        }
        let midTrial = fourthTrial(adoptingAfter: 2_000)
        let afterTrial = fourthTrial(adoptingAfter: 10_000)
        #expect(midTrial.fitted && !afterTrial.fitted)
        #expect(midTrial.during.count >= 4)
        #expect(midTrial.during == afterTrial.during)
        // The fit scores the next trial, at the live prediction interval (the learner's is at least 0.25 s).
        #expect(midTrial.next.count >= 10, "\(midTrial.next.count)")

        // 0.6 s after NEWTARGET: 0.1 s into the flicker, before the learner's first prediction.
        let early = fourthTrial(adoptingAfter: 600)
        let threshold = early.messages.firstIndex { if case .certaintyThreshold = $0 { return true } else { return false } }
        let firstPrediction = early.messages.firstIndex { if case .predictedTargetProb = $0 { return true } else { return false } }
        #expect(early.fitted)
        #expect(try #require(threshold) < #require(firstPrediction))
        #expect(early.during.count >= 20, "scored by the fit at the live interval: \(early.during.count)")
        #expect(early.during != midTrial.during)
    }
}
