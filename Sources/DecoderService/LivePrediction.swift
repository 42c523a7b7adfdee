import Decoding
import Foundation
import UtopiaProtocol

/// The live decoder's predictions: during a prediction trial it scores
/// each new stretch of filtered EEG against the model's templates of the
/// codes shown (a ``TrialScorer`` that grows with the trial), and every
/// `interval` seconds sends PREDICTEDTARGETPROB for the best object and
/// PREDICTEDTARGETDIST for all, with the model's error probability.
///
/// A trial is scored by one model from its first prediction to its end:
/// the one in force when it opened, or the newest fit to arrive before its
/// first PREDICTEDTARGETPROB or …DIST goes out (the trial is then scored
/// again from its start). A fit that arrives after that scores the next
/// trial. The engine holds a trial to the threshold in force at its first
/// prediction, and a fit's CERTAINTYTHRESHOLD goes out before the fit's
/// first prediction, so the threshold a trial is pressed at is always the
/// one its model recommended; its scores also stay on one spatial filter.
struct LivePrediction: Sendable {
    /// Seconds between predictions.
    let interval: Double
    /// Predictions (PREDICTEDTARGETPROB) sent so far.
    private(set) var sent = 0
    private var lastPredictionAt = -Double.infinity
    /// The model scoring the open trial.
    private var trialModel: CalibratedDecoder?
    /// The open trial's scores so far.
    private var scorer: TrialScorer?
    private var lastScoredTime = -Double.infinity
    private var scoredSincePrediction = false
    /// The open trial's samples scored so far.
    private var trialSamples = 0
    /// Each object's states from the trial's first sample (as many as a
    /// calibration code's averaged response is long, at most) and the
    /// averaged response they match, for a model that blends them in.
    private var shown: [[UInt8]] = []
    private var averaged: [[Double]?] = []
    private var missingBandReported = false
    /// True once the open trial's first prediction went out (from this
    /// model, or from zero training's learner through ``announce``).
    private var trialAnnounced = false

    init(interval: Double) {
        self.interval = interval
    }

    /// A new trial starts, scored by `model` (the one in force, if any): its scores start from nothing.
    mutating func startTrial(model: CalibratedDecoder?) {
        trialModel = model
        trialAnnounced = false
        restartScoring()
    }

    /// A fit arrived: it scores the open trial, from the trial's start, when
    /// nothing of the trial was announced yet (and then returns true);
    /// otherwise it waits for the next.
    @discardableResult
    mutating func modelArrived(_ model: CalibratedDecoder) -> Bool {
        guard !trialAnnounced else { return false }
        trialModel = model
        restartScoring()
        return true
    }

    private mutating func restartScoring() {
        scorer = nil
        lastScoredTime = -Double.infinity
        scoredSincePrediction = false
        trialSamples = 0
        shown = []
        averaged = []
        missingBandReported = false
    }

    /// Scores the samples of `trial` that arrived since the last call and
    /// predicts when due; nothing outside a started prediction trial, without
    /// a model or without EEG.
    mutating func update(trial: LiveTrial?, history: SampleHistory?, sampleRate: Double?,
                         timeline: StimulusTimeline, into outbox: inout DecoderOutbox) {
        guard let trial, trial.mode == .prediction, let start = trial.start,
              let decoder = trialModel, let history, let rate = sampleRate else { return }
        let objects = trial.objectIDs.filter { $0 != 0 }
        guard !objects.isEmpty else { return }
        // The band the model was fitted in (calibration chooses among the bands the history keeps).
        guard let eeg = history.filtered(lowPass: decoder.lowPass) else {
            if !missingBandReported {
                outbox.log("prediction skipped: the model's band (low-pass \(decoder.lowPass.map { "\($0) Hz" } ?? "none")) is not filtered live")
                missingBandReported = true
            }
            return
        }
        let first = history.firstIndex(after: max(start - 0.001, lastScoredTime))
        let last = history.firstIndex(after: trial.end)
        if first < last {
            let whitening = decoder.model.whitening
            let window = decoder.model.latencySamples + (decoder.model.kernels.first?.count ?? 0) + 2 + whitening.order
            let from = max(0, first - window)
            let times = Array(history.times[from..<last])
            // Before the trial's first frame every object was dark, as in calibration.
            let states = timeline.states(of: objects, at: times).map { row in
                zip(row, times).map { $1 < start ? 0 : $0 }
            }
            var templates = decoder.model.templates(for: states, blend: 0)
            let matched = averagedResponses(of: decoder.model, states: states.map { $0[(first - from)...] })
            if matched.contains(where: { $0 != nil }) {
                // Sample `first` is the trial's sample `trialSamples`.
                let start = trialSamples - (first - from)
                templates = zip(templates, matched).map { template, average in
                    average.map { decoder.model.blended(template, averaged: $0, from: start) } ?? template
                }
            }
            templates = templates.map { Array(whitening.apply($0)[(first - from)...]) }
            trialSamples += last - first
            var scorer = self.scorer ?? TrialScorer(spatialFilter: decoder.model.spatialFilter, objects: objects.count,
                                                    whitening: whitening)
            scorer.append(eeg.map { Array($0[first..<last]) }, templates: templates)
            self.scorer = scorer
            lastScoredTime = history.times[last - 1]
            scoredSincePrediction = true
        }
        if scoredSincePrediction, let scorer, scorer.sampleCount > 0, outbox.now - lastPredictionAt >= interval * 1000 {
            scoredSincePrediction = false
            predict(scores: scorer.scores(), seconds: Double(scorer.sampleCount) / rate, objects: objects,
                    stamp: trial.newestStamp, decoder: decoder, into: &outbox)
        }
    }

    /// Each object's averaged calibration response to blend in (nil where
    /// none), after the states `fresh` (objects × the samples now scored)
    /// are added to what the trial has shown: re-matched while the states
    /// shown are shorter than the averages, then kept.
    private mutating func averagedResponses(of model: ReconvolutionCCA, states fresh: [ArraySlice<UInt8>]) -> [[Double]?] {
        guard model.settings.templateBlend > 0, let length = model.averagedResponses.first?.code.count else { return [] }
        if shown.count != fresh.count {
            shown = Array(repeating: [], count: fresh.count)
            averaged = Array(repeating: nil, count: fresh.count)
        }
        for k in fresh.indices where shown[k].count < length {
            shown[k] += fresh[k].prefix(length - shown[k].count)
            averaged[k] = model.averagedResponse(shownSoFar: shown[k][...])
        }
        return averaged
    }

    private mutating func predict(scores: [Double], seconds: Double, objects: [UInt8], stamp: Int32,
                                  decoder: CalibratedDecoder, into outbox: inout DecoderOutbox) {
        announce(scores: scores, errorProbability: decoder.certainty.errorProbability(scores: scores, seconds: seconds),
                 objects: objects, stamp: stamp, sharpness: 20, into: &outbox)
    }

    /// Sends PREDICTEDTARGETPROB for the best of `scores` with `errorProbability`
    /// (clamped to 0…1, 1 when not finite) and PREDICTEDTARGETDIST: the best
    /// object gets 1 − Perr and the others share Perr by `exp(sharpness · (score − best))`.
    /// The next prediction of a model is due `interval` after it, whoever announced it.
    mutating func announce(scores: [Double], errorProbability: Double, objects: [UInt8], stamp: Int32, sharpness: Double,
                           into outbox: inout DecoderOutbox) {
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }) else { return }
        trialAnnounced = true
        lastPredictionAt = outbox.now
        var perr = errorProbability
        if !perr.isFinite { perr = 1 }
        perr = min(max(perr, 0), 1)
        if objects[best] <= 127 {
            outbox.send(.predictedTargetProb(PredictedTargetProb(timestamp: stamp, objID: Int8(objects[best]),
                                                                 errorProbability: Float(perr))))
            sent += 1
        }
        // The rest of the probability is shared by the other objects by their scores.
        let weights = scores.enumerated().map { $0.offset == best ? 0 : exp(sharpness * ($0.element - scores[best])) }
        let total = weights.reduce(0, +)
        let probabilities = scores.indices.map { k -> Float in
            if k == best { return Float(1 - perr) }
            let p = total > 0 ? perr * weights[k] / total : perr / Double(max(1, scores.count - 1))
            return Float(p.isFinite ? p : 0)
        }
        outbox.send(.predictedTargetDist(PredictedTargetDist(timestamp: stamp, objIDs: objects, probabilities: probabilities)))
    }
}
