/// The phases of one trial.
///
/// Training and Verify: `cue` (the target is highlighted), `pause`, `flicker`.
/// Test: `flicker` only.
public enum TrialPhase: String, Codable, Sendable {
    /// The target is highlighted.
    case cue
    /// All controls at rest after the cue.
    case pause
    /// The controls flicker their codes.
    case flicker
}
