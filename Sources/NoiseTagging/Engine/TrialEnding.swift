/// Why a trial ended.
///
/// ```swift
/// if case .pressed(.brain) = ending { … }
/// ```
public enum TrialEnding: Equatable, Codable, Sendable, CustomStringConvertible {
    /// A press by brain, touch, or (with `disableNoClicks`) the timeout.
    case pressed(PressSource)
    /// The maximum trial duration ran out with no press: "no press" feedback.
    case noPress
    /// A training trial flickered for its configured duration.
    case completed
    /// Stopped mid-way (trials off, a block, an update, a mode change): no feedback.
    case stopped(StopCause)

    /// What stopped a trial mid-way.
    public enum StopCause: String, Codable, Sendable {
        case trialsOff, blocked, update, modeChange, decoderLost
    }

    /// A short text: `pressed-brain`, `noPress`, `completed`, `stopped-update`…
    public var description: String {
        switch self {
        case .pressed(let source): return "pressed-\(source.rawValue)"
        case .noPress: return "noPress"
        case .completed: return "completed"
        case .stopped(let cause): return "stopped-\(cause.rawValue)"
        }
    }
}
