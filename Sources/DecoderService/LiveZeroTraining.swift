import Decoding
import Foundation
import UtopiaProtocol

/// The live decoder without labels (zero training) and its learning from
/// presses once it has a model.
///
/// - Without any model, a prediction trial is scored by the
///   ``ZeroTrainingLearner``'s hypothesis scores (from
///   ``ZeroTrainingLearner/minimumSeconds`` into the trial, every
///   `interval`), with its calibration-free error probability. Each finished
///   prediction trial is learned, and earlier labels revised. A revised
///   trial, or a pressed one whose learned label is another object, is
///   announced with SELECTIONREVISED. From the second learned trial on, the
///   learned trials as labelled are the calibration of an interim supervised
///   fit (refitted after every trial, its certainty calibrated on them as in
///   supervised use), which scores the trials in between; after
///   `zeroTrainTrials` the last such fit is the hand-over.
/// - With a supervised model, every pressed trial of at least
///   ``ZeroTrainingLearner/minimumSeconds`` and at least as long as the
///   calibration's shortest trial (a calibration dataset keeps one length,
///   so a shorter one would cut all the others) becomes a calibration trial
///   labelled with the pressed object, and after every `adaptEvery` of them
///   the decoder is fitted again. After a zero-training hand-over the
///   calibration is as short as the learned trials and presses qualify;
///   after a cued calibration of 4 s trials, presses at 1 to 2 s do not.
struct LiveZeroTraining: Sendable {
    /// Trials learned without labels before the hand-over.
    let zeroTrainTrials: Int
    /// Pressed trials between two refits once a model exists (0: never).
    let adaptEvery: Int
    /// Seconds between two unsupervised predictions.
    let interval: Double
    /// The learner, created with the first trial's channels and rate.
    private(set) var learner: ZeroTrainingLearner?
    /// The learned trials, in order (their NEWTARGET stamps and objects).
    private var learned: [FinishedPrediction] = []
    /// What the engine pressed in each trial not yet learned from (SELECTION), by NEWTARGET stamp.
    private var pressed: [Int32: UInt8] = [:]
    /// What the decoder last said each learned trial was, by NEWTARGET stamp.
    private var said: [Int32: UInt8] = [:]
    /// Pressed trials added to the calibration since the last fit.
    private var adaptedSinceFit = 0
    /// True once the learned labels were handed over as a calibration.
    private(set) var handedOver = false
    /// True while learning without labels (no model when it began, not yet handed over).
    private(set) var active = false
    private var lastPredictionAt = -Double.infinity
    private var predictedStamp: Int32?

    init(zeroTrainTrials: Int, adaptEvery: Int, interval: Double) {
        self.zeroTrainTrials = zeroTrainTrials
        self.adaptEvery = adaptEvery
        self.interval = interval
    }

    /// Trials learned without labels so far.
    var learnedCount: Int { learned.count }

    /// Forgets everything learned (RESET, new EEG format).
    mutating func forget() {
        learner = nil
        learned.removeAll()
        pressed.removeAll()
        said.removeAll()
        adaptedSinceFit = 0
        handedOver = false
        active = false
        predictedStamp = nil
    }

    /// The engine pressed `object` in the trial opened by `stamp`.
    mutating func heardSelection(of object: UInt8, inTrial stamp: Int32) {
        pressed[stamp] = object
    }

    /// Scores the open prediction trial without a model when due: PREDICTEDTARGETPROB
    /// and …DIST from the hypothesis scores, once the trial is long enough.
    mutating func update(trial: LiveTrial?, history: SampleHistory?, sampleRate: Double?, timeline: StimulusTimeline,
                         prediction: inout LivePrediction, into outbox: inout DecoderOutbox) {
        guard let trial, trial.mode == .prediction, let start = trial.start, let history, let rate = sampleRate else { return }
        if predictedStamp != trial.newTargetStamp {
            predictedStamp = trial.newTargetStamp
            lastPredictionAt = -Double.infinity
        }
        guard outbox.now - lastPredictionAt >= interval * 1000 else { return }
        let objects = trial.objectIDs.filter { $0 != 0 }
        guard objects.count >= 2 else { return }
        let first = history.firstIndex(atOrAfter: start)
        let last = history.firstIndex(after: trial.end)
        guard Double(last - first) / rate >= ZeroTrainingLearner.minimumSeconds else { return }
        lastPredictionAt = outbox.now
        guard let band = history.filtered(lowPass: nil) else { return }
        let eeg = band.map { Array($0[first..<last]) }
        let states = timeline.states(of: objects, at: Array(history.times[first..<last]))
        if learner == nil { learner = ZeroTrainingLearner(sampleRate: rate, channels: eeg.count) }
        guard let learner, learner.channels == eeg.count else { return }
        let scores = learner.hypothesisScores(eeg, codes: states)
        guard scores.count == objects.count else { return }
        let perr = ZeroTrainingLearner.errorProbability(scores: scores)
        prediction.announce(scores: scores, errorProbability: perr, objects: objects, stamp: trial.newestStamp,
                            sharpness: 200, into: &outbox)
    }

    /// Learns from the finished prediction trials. While zero training (no
    /// model when it began, not yet handed over): learns each unsupervised,
    /// announces revisions, and from the second trial on replaces the
    /// calibration with the learned trials as labelled, for an interim
    /// supervised fit (its certainty calibrated on them); after
    /// `zeroTrainTrials` that fit is the hand-over. With a model otherwise
    /// (`hasModel`): adds pressed trials to the calibration, a refit every
    /// `adaptEvery`. A trial that ends while a cued calibration is being
    /// fitted (`calibrationAbsent` false, no model yet) is left alone.
    /// Returns true when a fit should be requested.
    mutating func learn(_ finished: [FinishedPrediction], hasModel: Bool, calibrationAbsent: Bool, sampleRate: Double?,
                        trials: inout TrialCutter, into outbox: inout DecoderOutbox) -> Bool {
        var fit = false
        for trial in finished {
            // What the engine pressed in this trial is needed only now.
            defer { pressed[trial.newTargetStamp] = nil }
            let seconds = Double(trial.sampleCount) / (sampleRate ?? 250)
            // Zero training begins only without any calibration: not while a cued calibration's fit is on its way.
            if !active, !handedOver, calibrationAbsent { active = true }
            guard active else {
                // The calibration keeps one trial length: a shorter trial would cut every other one to its length.
                let shortest = Double(trials.calibration.map(\.sampleCount).min() ?? 0) / (sampleRate ?? 250)
                guard hasModel, adaptEvery > 0, let object = pressed[trial.newTargetStamp],
                      seconds >= max(ZeroTrainingLearner.minimumSeconds, shortest), let labelled = trial.labelled(object) else { continue }
                trials.addCalibration(labelled)
                adaptedSinceFit += 1
                if adaptedSinceFit >= adaptEvery {
                    adaptedSinceFit = 0
                    outbox.log("learning from presses: fitting again with \(trials.calibration.count) trials")
                    fit = true
                }
                continue
            }
            guard seconds >= ZeroTrainingLearner.minimumSeconds, let rate = sampleRate else { continue }
            // The high-pass and notch only.
            guard let eeg = trial.filtered[nil] else { continue }
            if learner == nil { learner = ZeroTrainingLearner(sampleRate: rate, channels: eeg.count) }
            guard var model = learner, model.channels == eeg.count else { continue }
            let revisions = model.add(eeg, codes: trial.states)
            guard model.trials.count == learned.count + 1 else { continue }
            learner = model
            learned.append(trial)
            let label = model.labels[model.labels.count - 1]
            outbox.log("zero training: trial \(learned.count) of \(zeroTrainTrials) learned as object \(trial.objectIDs[label])"
                       + (revisions.isEmpty ? "" : ", \(revisions.count) earlier trial(s) revised"))
            var changed = revisions.map(\.trial)
            if let object = pressed[trial.newTargetStamp], object != trial.objectIDs[label] {
                changed.append(learned.count - 1)
            } else {
                said[trial.newTargetStamp] = trial.objectIDs[label]
            }
            for index in changed {
                let stamp = learned[index].newTargetStamp
                let object = learned[index].objectIDs[model.labels[index]]
                guard said[stamp] != object, object <= 127 else { continue }
                said[stamp] = object
                outbox.send(.selectionRevised(SelectionRevised(timestamp: outbox.stamp, trialStamp: stamp, objID: object)))
            }
            guard learned.count >= 2 else { continue }
            trials.replaceCalibration(with: learned.enumerated().compactMap { index, trial in
                trial.labelled(trial.objectIDs[model.labels[index]])
            })
            fit = true
            if learned.count >= zeroTrainTrials {
                active = false
                handedOver = true
                outbox.log("zero training: \(learned.count) trials learned; fitting the supervised decoder on their labels")
            }
        }
        return fit
    }
}
