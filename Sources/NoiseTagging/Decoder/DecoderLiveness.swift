/// The engine's watch on its decoder: when it last heard one, when it last
/// sent a heartbeat, and the resulting connection state.
struct DecoderLiveness {
    var state: DecoderConnectionState = .none
    var started: Double?
    var lastHeard: Double?
    var lastHeartbeat: Double?
    var warnedSlowConnect = false
    /// Start of the current attempt to reach the decoder (while not connected).
    var attemptStarted: Double?
    /// Attempts so far that got no answer within `timeoutConnecting`.
    var failedAttempts = 0
    /// When the next attempt starts, after one got no answer.
    var retryAt: Double?
}
