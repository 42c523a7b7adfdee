/// Why a trial ended.
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

    /// Parses the text form (`pressed-brain`, `noPress`, `completed`, `stopped-update`…).
    public init?(text: String) {
        if text == "noPress" { self = .noPress; return }
        if text == "completed" { self = .completed; return }
        if text.hasPrefix("pressed-"), let source = PressSource(rawValue: String(text.dropFirst(8))) {
            self = .pressed(source); return
        }
        if text.hasPrefix("stopped-"), let cause = StopCause(rawValue: String(text.dropFirst(8))) {
            self = .stopped(cause); return
        }
        return nil
    }

    /// Decodes the text form.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let ending = TrialEnding(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "unknown trial ending '\(text)'"))
        }
        self = ending
    }

    /// Encodes the text form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
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
