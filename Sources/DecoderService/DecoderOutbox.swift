import UtopiaProtocol

/// The messages a ``LiveDecoder`` call sends, stamped with the call's wire
/// time: the parts of the decoder append their LOG lines and replies, and
/// the decoder hands them all out when the call returns.
struct DecoderOutbox: Sendable {
    /// The wire time (ms) of the call being answered.
    var now: Double
    private var messages: [UtopiaMessage] = []

    init(now: Double) {
        self.now = now
    }

    /// `now` as a wire timestamp.
    var stamp: Int32 { MonotonicClock.utopiaTimestamp(milliseconds: now) }

    /// Queues `message` as it is.
    mutating func send(_ message: UtopiaMessage) {
        messages.append(message)
    }

    /// Queues a LOG line, prefixed "decoder: ".
    mutating func log(_ text: String) {
        messages.append(.log(Log(timestamp: stamp, message: "decoder: " + text)))
    }

    /// Everything queued since the last call.
    mutating func take() -> [UtopiaMessage] {
        defer { messages.removeAll(keepingCapacity: true) }
        return messages
    }
}
