/// How one trial went, logged or replayed: its ending, the pressed control,
/// when it ended, and the messages the engine sent the decoder during it
/// that replay compares (NEWTARGET, STIMULUSEVENT, SELECTION, MODECHANGE).
public struct TrialOutcome: Equatable, Sendable {
    /// `pressed-brain`, `noPress`, `completed`, `stopped-update`, … ; `unfinished`
    /// when a what-if trial had not ended 120 s after its start (no time limit).
    public var ending: String
    /// The pressed control's identifier.
    public var pressed: String?
    /// The pressed control's object ID.
    public var pressedObjectID: Int?
    /// The deciding prediction's certainty (brain and timeout presses).
    public var certainty: Double?
    /// Engine time the trial ended (nil while unfinished).
    public var endTime: Double?
    /// Seconds from the trial's start to its end.
    public var duration: Double?
    /// How the trial started: target, object IDs, codes and code shift, in one line.
    public var start: String?
    /// The messages compared, in the order sent.
    public var messages: [SentMessage] = []

    /// One message the engine sent.
    public struct SentMessage: Equatable, Sendable {
        public var time: Double
        public var bytes: [UInt8]
        /// Sent by an app call between ticks, in a replay: a real clock runs
        /// on while a call is handled and a replay's stands still, so such a
        /// message's stamp is not compared (not part of equality either).
        public var byCall = false

        public static func == (a: SentMessage, b: SentMessage) -> Bool { a.time == b.time && a.bytes == b.bytes }

        /// The same message, but for the stamp when either was sent by a call between ticks.
        func matches(_ other: SentMessage) -> Bool {
            guard byCall || other.byCall, bytes.count == other.bytes.count, bytes.count >= 8 else { return bytes == other.bytes }
            return bytes[..<4] == other.bytes[..<4] && bytes[8...] == other.bytes[8...]
        }
    }

    /// True when the trial ended with a press (brain, touch or timeout).
    public var isPress: Bool { ending.hasPrefix("pressed-") }
}
