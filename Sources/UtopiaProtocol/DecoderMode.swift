/// What the engine has asked the decoder to do (`Protocols/decoder-bridge.md` §5).
public enum DecoderMode: String, Equatable, Sendable {
    /// Nothing running.
    case idle
    /// Supervised calibration: collect trials.
    case calibration
    /// Prediction trials: send P and F.
    case prediction
    /// Electrode check: signal quality only.
    case electrodeMeasurement
    /// Forget calibration and model, then idle.
    case reset

    /// The MODECHANGE text this mode is sent as: the spelling MindAffect's
    /// decoder expects (`Calibration.supervised`, `Prediction.static`,
    /// `ElectrodeMeasurement`, `idle`, `reset`); ``init(modeText:)`` reads it back.
    public var modeText: String {
        switch self {
        case .idle: return "idle"
        case .calibration: return "Calibration.supervised"
        case .prediction: return "Prediction.static"
        case .electrodeMeasurement: return "ElectrodeMeasurement"
        case .reset: return "reset"
        }
    }

    /// The mode a MODECHANGE text names (case-insensitive, the reference's
    /// spellings too), or nil for a mode this decoder does not support.
    public init?(modeText: String) {
        switch modeText.lowercased() {
        case "calibration.supervised", "calibrate.supervised": self = .calibration
        case "prediction.static", "predict.static": self = .prediction
        case "electrodemeasurement": self = .electrodeMeasurement
        case "idle": self = .idle
        case "reset": self = .reset
        default: return nil
        }
    }
}
