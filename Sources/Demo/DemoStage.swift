/// Where the demo is in its walk-through: signal check → calibration →
/// fitting → results → spelling (→ confirming) → finished.
public enum DemoStage: Equatable, Sendable {
    /// The signal view; ends at `until` (engine time, s) or on Enter.
    case signalCheck(until: Double)
    /// Training trials with cued targets.
    case calibration
    /// Calibration ended; the decoder is fitting (since engine time `since`).
    case fitting(since: Double)
    /// The decoder's accuracy and threshold on screen until `until` (or Enter).
    case results(until: Double)
    /// Test trials on the keyboard.
    case spelling
    /// The confirmation popup is on top of the keyboard (pushed at `since`).
    case confirming(since: Double)
    /// The goal text was confirmed.
    case finished

    /// A short name for headers and logs.
    public var name: String {
        switch self {
        case .signalCheck: return "signal check"
        case .calibration: return "calibration"
        case .fitting: return "fitting"
        case .results: return "results"
        case .spelling: return "spelling"
        case .confirming: return "confirming"
        case .finished: return "finished"
        }
    }
}
