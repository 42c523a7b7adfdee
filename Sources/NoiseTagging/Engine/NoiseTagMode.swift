import UtopiaProtocol

/// What trials do: calibrate the decoder, or let the user press buttons.
public enum NoiseTagMode: String, CaseIterable, Codable, Sendable {
    /// Calibration on the current unit's controls: cue a target, pause, flicker; `nGenericTrainTrials` trials.
    case trainGeneric = "TrainGeneric"
    /// Short calibration: `nSimpleTrainTrials` trials of `trialDurationSimpleTrain`.
    case trainSimple = "TrainSimple"
    /// Calibration whose targets the delegate picks (`nextTarget`, `thereWillBeANextTarget`).
    case trainCustom = "TrainCustom"
    /// Normal use: flicker until a press or the maximum trial duration.
    case test = "Test"
    /// Test with a known (cued) target, to measure accuracy.
    case verify = "Verify"
    /// Electrode impedance check: no trials.
    case electrodeQuality = "ElectrodeQuality"
    /// Signal quality check: no trials.
    case signalQuality = "SignalQuality"
    /// Prediction trials kept for later analysis; like Test, never switches mode by itself.
    case dataCollection = "DataCollection"
    /// Calibration-free start: Test trials with a stricter first press, then Test.
    case zeroTrain = "ZeroTrain"

    /// True for the supervised calibration modes.
    public var isTraining: Bool {
        self == .trainGeneric || self == .trainSimple || self == .trainCustom
    }

    /// True when the mode runs trials at all.
    public var runsTrials: Bool { self != .electrodeQuality && self != .signalQuality }

    /// True when trials start with a cued target (training and Verify).
    public var cuesTarget: Bool { isTraining || self == .verify }

    /// The MODECHANGE text the MindAffect decoder understands for this mode.
    public var decoderModeString: String {
        switch self {
        case .trainGeneric, .trainSimple, .trainCustom: return DecoderMode.calibration.modeText
        case .test, .verify, .dataCollection, .zeroTrain: return DecoderMode.prediction.modeText
        case .electrodeQuality, .signalQuality: return DecoderMode.electrodeMeasurement.modeText
        }
    }
}
