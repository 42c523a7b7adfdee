import Decoding
import Demo
import Foundation
import NoiseTagging
import UtopiaProtocol

extension SessionScenario {
    // MARK: Engine and decoder

    func hear(_ event: NoiseTagEvent) {
        switch event.kind {
        case .modeChanged(.trainGeneric, .test, _):
            if phase == .calibrating { switchedToTest = true }
        case .recordingStarted(let folderName, _, _):
            let name = URL(fileURLWithPath: folderName).lastPathComponent
            if !stepRecordings.contains(name) { stepRecordings.append(name) }
        case .trialStarted(let start) where start.mode == .test || start.mode == .zeroTrain:
            guard isTrialStep else { return }
            let intended: String?
            if case .noControl = currentStep?.kind { intended = nil }
            else if isFreeSpell, participant == nil { intended = nil }
            else { intended = neededKey() }
            selections[start.trial] = Selection(trial: start.trial, start: event.time, intended: intended)
        case .press(let press):
            guard let trial = press.trial, selections[trial] != nil else { return }
            selections[trial]?.pressed = press.control
            selections[trial]?.source = press.source.rawValue
            selections[trial]?.certainty = press.certainty
        case .refused("trial start", let reason) where ending == nil:
            // The codebook has too few codes, IDs clash…: no trial of the session can start, so waiting helps nothing.
            ending = .stopped("no trial can start: \(reason)")
        case .selectionRevised:
            revisions += 1
        case .trialEnded(let end):
            guard var selection = selections.removeValue(forKey: end.trial) else { return }
            selection.end = event.time
            if case .stopped = end.ending { selection.stopped = true }
            finishedSelections.append(selection)
        default:
            break
        }
    }

    var isTrialStep: Bool {
        switch currentStep?.kind {
        case .copySpell, .freeSpell, .zeroTrain, .noControl: return true
        default: return false
        }
    }

    func hear(_ traffic: DecoderTraffic) {
        guard traffic.direction == .in, case .signalQuality(let message) = traffic.message, case .signalCheck = phase else { return }
        quality.append(message.quality.map { $0.isFinite ? min(max(Double($0), 0), 1) : 1 })
    }
}
