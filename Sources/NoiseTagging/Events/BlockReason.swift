/// Who placed a block on trials.
public enum BlockReason: String, Codable, Sendable {
    /// `blockTrials(forDuration:)` by the app.
    case client
    /// The minimum gap `timeInBetweenTrials` after a trial.
    case betweenTrials
    /// A unit update is running.
    case update
    /// Press or no-press feedback is showing.
    case feedback
    /// Waiting for the decoder to confirm a mode change.
    case modeConfirmation
    /// The decoder is not connected (yet, or any more).
    case decoder
}
