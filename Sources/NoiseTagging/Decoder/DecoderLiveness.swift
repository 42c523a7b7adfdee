/// The engine's watch on its decoder: when it last heard one, when it last
/// sent a heartbeat, and the resulting connection state.
struct DecoderLiveness {
    var state: DecoderConnectionState = .none
    var started: Double?
    var lastHeard: Double?
    var lastHeartbeat: Double?
    var warnedSlowConnect = false
}
