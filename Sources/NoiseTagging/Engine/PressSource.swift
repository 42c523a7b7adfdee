/// What caused a press.
public enum PressSource: String, Codable, Sendable {
    /// A decoder prediction passed `certaintyRequiredForPress`.
    case brain
    /// The app reported a touch (or key) press.
    case touch
    /// The maximum trial duration ran out with `disableNoClicks`: the most likely control.
    case timeout
}
