import UtopiaProtocol

extension NoiseTagController {
    /// Handles one message from the decoder, on the engine thread.
    func handleDecoderMessage(_ message: UtopiaMessage, now: Double) {
        switch message {
        case .predictedTargetProb(let prediction):
            // Yest −1 is no prediction; object 0 stands for the cued target in training and Verify, where it presses nothing.
            guard let trial, trial.phase == .flicker, prediction.objID > 0 || (prediction.objID == 0 && !trial.mode.cuesTarget),
                  takes(prediction.timestamp, "PREDICTEDTARGETPROB", in: trial, problem: problem(with: prediction, in: trial)) else { return }
            trial.latestPrediction = (Int(prediction.objID), 1 - Double(prediction.errorProbability))
        case .predictedTargetDist(let dist):
            guard let trial, trial.phase == .flicker,
                  takes(dist.timestamp, "PREDICTEDTARGETDIST", in: trial, problem: problem(with: dist, in: trial)) else { return }
            var distribution: [Int: Double] = [:]
            for (id, p) in zip(dist.objIDs, dist.probabilities) where id > 0 { distribution[Int(id)] = Double(p) }
            trial.distribution = distribution
        case .modeChange(let change):
            if let waiting = modeConfirmation, change.newMode == waiting.mode.decoderModeString {
                modeConfirmation = nil
                removeEngineBlocks(.modeConfirmation)
                emit(.modeConfirmed(mode: waiting.mode, confirmed: true))
            }
        case .calibrationResult(let result):
            // Through the float's shortest decimal: 0.9 on the wire reads 0.9, not 0.8999999761581421.
            func measured(_ x: Float) -> Double? { x.isFinite ? Double("\(x)") : nil }
            emit(.decoderCalibration(.init(fitted: result.fitted, trials: Int(result.trials), accuracy: measured(result.accuracy),
                                           seconds: measured(result.seconds), summary: result.summary)))
        case .certaintyThreshold(let advice):
            adoptThreshold(Double(advice.threshold))
        case .selectionRevised(let revision):
            guard let ended = endedTrials[revision.trialStamp], let control = ended.controls[Int(revision.objID)] else { return }
            emit(.selectionRevised(.init(trial: ended.number, control: control, objectID: Int(revision.objID), pressed: ended.pressed)))
        default:
            break
        }
    }

    /// The decoder's recommended threshold, unless the user chose one.
    private func adoptThreshold(_ threshold: Double) {
        if settings.explicitlySet.contains(.certaintyRequiredForPress) {
            emit(.notice("decoder recommends certaintyRequiredForPress \(threshold); ignored because the user set it"))
            return
        }
        adoptingAdvice = true
        defer { adoptingAdvice = false }
        do {
            try settings.adopt(value: .double(threshold), for: .certaintyRequiredForPress)
        } catch {
            emit(.refused(call: "decoder threshold", reason: error.description))
            return
        }
        // A trial that has heard no prediction yet is scored by the model this
        // threshold came with (a trial that opened while the fit was on its way).
        if let trial, !trial.mode.isTraining, trial.latestPrediction == nil, trial.distribution.isEmpty {
            trial.requiredCertainty = requiredCertainty()
        }
    }

    /// Why the current trial's `prediction` cannot be taken, or nil: a Perr
    /// outside 0 … 1 (or NaN: a log-probability sent by mistake would
    /// otherwise press at full certainty), or an object not on screen.
    /// (Timestamps are not checked against the engine's clock: MindAffect's
    /// decoder stamps with its own.)
    private func problem(with prediction: PredictedTargetProb, in trial: Trial) -> String? {
        let name = "PREDICTEDTARGETPROB for object \(prediction.objID)"
        let perr = prediction.errorProbability
        guard prediction.objID != 0 else {
            return "\(name) ignored: object 0 stands for the cued target in calibration and Verify trials and is never pressed; predict the object's own ID (1 … 127)"
        }
        guard perr.isFinite, (0...1).contains(perr) else {
            return "\(name) ignored: Perr \(perr) is not a probability (0 … 1)"
        }
        guard trial.entry(objectID: Int(prediction.objID)) != nil else {
            let shown = trial.entries.map { String($0.objectID) }.joined(separator: ", ")
            return "\(name) ignored: no such object on screen in trial \(trial.number) (objects \(shown))"
        }
        return nil
    }

    /// Why the current trial's distribution cannot be taken, or nil: checked
    /// as a `P` is, entry by entry (object 0 is the cued target's mirror in
    /// calibration and Verify trials, where it is left out).
    private func problem(with dist: PredictedTargetDist, in trial: Trial) -> String? {
        for (id, p) in zip(dist.objIDs, dist.probabilities) {
            guard p.isFinite, (0...1).contains(p) else {
                return "PREDICTEDTARGETDIST ignored: its probability \(p) for object \(id) is not a probability (0 … 1)"
            }
            if id == 0, trial.mode.cuesTarget { continue }
            guard id != 0 else {
                return "PREDICTEDTARGETDIST ignored: object 0 stands for the cued target in calibration and Verify trials and is never pressed; give the objects' own IDs (1 … 255)"
            }
            guard trial.entry(objectID: Int(id)) != nil else {
                let shown = trial.entries.map { String($0.objectID) }.joined(separator: ", ")
                return "PREDICTEDTARGETDIST ignored: object \(id) is not on screen in trial \(trial.number) (objects \(shown))"
            }
        }
        return nil
    }

    /// Whether a `name` (P or F) stamped `stamp` is taken in `trial`: not
    /// when older than the trial's start (its NEWTARGET: a late one from the
    /// trial before, or, stamped over a minute before, a decoder whose clock
    /// is not the engine's: its stamps must copy the newest STIMULUSEVENT's),
    /// nor with a `problem`. Each is reported once per trial: a decoder that
    /// sends such a message sends it at every update.
    private func takes(_ stamp: Int32, _ name: String, in trial: Trial, problem: @autoclosure () -> String?) -> Bool {
        var report: String?
        if !isNotOlder(stamp, than: trial.startStamp) {
            let behind = Int64(trial.startStamp &- stamp)
            guard behind > 60_000 else { return false }
            report = "\(name) ignored: stamped \(stamp) ms, \(behind / 1000) s before trial \(trial.number) started (its NEWTARGET, \(trial.startStamp) ms); a decoder stamps its predictions with the newest STIMULUSEVENT's timestamp, on the engine's clock"
        } else {
            report = problem()
        }
        guard let report else { return true }
        if !trial.reportedPredictionProblem { emit(.decoderProblem(report)) }
        trial.reportedPredictionProblem = true
        return false
    }

    /// Wrapping int32 millisecond comparison: true when `stamp` is at or after `reference`.
    func isNotOlder(_ stamp: Int32, than reference: Int32) -> Bool {
        stamp &- reference >= 0
    }
}
