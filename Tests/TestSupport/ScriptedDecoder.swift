import NoiseTagging
import Simulation
import UtopiaProtocol

/// The test suites' one decoder stand-in: on the engine's in-memory link, for
/// scenario tests on a virtual clock: it confirms modes; when calibration ends it logs an
/// accuracy and sends a CALIBRATIONRESULT and a threshold (or, with
/// `failsToFit`, a CALIBRATIONRESULT saying no model came); in each prediction trial it becomes sure,
/// after `secondsToPress`, of the object the ``GazeFocus`` names — or of
/// `misreads[n]` for the n-th prediction trial when one is given.
public final class ScriptedDecoder {
    public let link = InMemoryDecoderLink()
    public let focus = GazeFocus()
    public var secondsToPress = 0.8
    public var misreads: [Int: UInt8] = [:]
    public var threshold: Float = 0.99
    public var fits = 0
    public var failsToFit = false
    private var mode = ""
    private var trialStart: Double?
    private var trialTarget: UInt8?
    private var predictionTrials = 0
    private let clock: VirtualClock

    public init(clock: VirtualClock) {
        self.clock = clock
        link.onSend = { [unowned self] message in self.hear(message) }
    }

    private func hear(_ message: UtopiaMessage) {
        switch message {
        case .modeChange(let change):
            let wasCalibrating = mode == "Calibration.supervised"
            mode = change.newMode
            link.deliver(.modeChange(change))
            if wasCalibrating, mode != "Calibration.supervised" {
                fits += 1
                if failsToFit {
                    link.deliver(.calibrationResult(CalibrationResult(timestamp: clock.utopiaTimestamp, fitted: false, trials: 5,
                                                                      summary: "calibration failed: one class only")))
                    return
                }
                link.deliver(.log(Log(timestamp: clock.utopiaTimestamp, message: "decoder: cross-validated accuracy 90 % at 4.2 s (10 trials, 5 folds)")))
                link.deliver(.calibrationResult(CalibrationResult(timestamp: clock.utopiaTimestamp, fitted: true, trials: 10,
                                                                  accuracy: 0.9, seconds: 4.2, summary: "refe")))
                link.deliver(.certaintyThreshold(CertaintyThreshold(timestamp: clock.utopiaTimestamp, threshold: threshold)))
            }
        case .newTarget:
            guard mode == "Prediction.static" else { return }
            trialStart = clock.now
            trialTarget = misreads[predictionTrials] ?? focus.objectID
            predictionTrials += 1
        case .selection:
            trialStart = nil
        default:
            break
        }
    }

    /// Sends this frame's prediction, if a prediction trial runs.
    public func predict() {
        guard let start = trialStart, let target = trialTarget else { return }
        let sure = clock.now - start >= secondsToPress
        link.deliver(.predictedTargetProb(PredictedTargetProb(timestamp: clock.utopiaTimestamp, objID: Int8(target),
                                                              errorProbability: sure ? 0.001 : 0.5)))
    }
}
