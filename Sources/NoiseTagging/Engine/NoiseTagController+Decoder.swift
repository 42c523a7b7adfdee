import UtopiaProtocol

extension NoiseTagController {
    /// Handles one message from the decoder, on the engine thread.
    func handleDecoderMessage(_ message: UtopiaMessage, now: Double) {
        switch message {
        case .predictedTargetProb(let prediction):
            guard let trial, trial.phase == .flicker, prediction.objID > 0,
                  isNotOlder(prediction.timestamp, than: trial.startStamp) else { return }
            let certainty = 1 - Double(prediction.errorProbability)
            trial.latestPrediction = (Int(prediction.objID), min(max(certainty, 0), 1))
        case .predictedTargetDist(let dist):
            guard let trial, trial.phase == .flicker,
                  isNotOlder(dist.timestamp, than: trial.startStamp) else { return }
            var distribution: [Int: Double] = [:]
            for (id, p) in zip(dist.objIDs, dist.probabilities) where id > 0 { distribution[Int(id)] = Double(p) }
            trial.distribution = distribution
        case .modeChange(let change):
            if let waiting = modeConfirmation, change.newMode == waiting.mode.decoderModeString {
                modeConfirmation = nil
                removeEngineBlocks(.modeConfirmation)
                emit(.modeConfirmed(mode: waiting.mode, confirmed: true))
            }
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

    /// Wrapping int32 millisecond comparison: true when `stamp` is at or after `reference`.
    func isNotOlder(_ stamp: Int32, than reference: Int32) -> Bool {
        stamp &- reference >= 0
    }
}
