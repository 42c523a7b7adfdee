import Foundation
import JSONSupport
import UtopiaProtocol

/// What one recording holds, read back from its files: trials by mode,
/// accuracy in training and Verify, presses by source, frames and missed
/// frames, decoder traffic and disconnects, and its time spans.
/// `noisetag recordings show` prints it.
/// Optional fields are written as `null` when unknown (``NullWhenAbsent``).
public struct RecordingSummary: Codable, Sendable {
    /// Trials with a cued target: how many ended by a press or "no press",
    /// how many of those pressed the target; and how many got a decoder
    /// prediction during flicker, and how often the last one named the target.
    public struct Accuracy: Codable, Sendable, Equatable {
        public var trials = 0
        public var correct = 0
        public var decoderTrials = 0
        public var decoderCorrect = 0

        /// Counts of trials (all zero by default).
        public init(trials: Int = 0, correct: Int = 0, decoderTrials: Int = 0, decoderCorrect: Int = 0) {
            (self.trials, self.correct, self.decoderTrials, self.decoderCorrect) = (trials, correct, decoderTrials, decoderCorrect)
        }
    }

    /// First and last engine and wall times seen in any file, and time spent in trials.
    public struct Spans: Codable, Sendable, Equatable {
        @NullWhenAbsent public var firstTime: Double? = nil
        @NullWhenAbsent public var lastTime: Double? = nil
        @NullWhenAbsent public var firstWallTime: Double? = nil
        @NullWhenAbsent public var lastWallTime: Double? = nil
        /// Seconds from the first to the last line (engine clock).
        @NullWhenAbsent public var seconds: Double? = nil
        public var trialSeconds = 0.0
        public var flickerSeconds = 0.0

        /// Nothing seen yet.
        public init() {}
    }

    public var folder: String
    /// `closed`, `open` or `crashed`.
    public var state: String
    /// True when the recording closed normally: every line of every file
    /// was written whole, so a cut or missing one is damage, not a crash.
    public var isClosed: Bool { state == RecordingEntry.State.closed.rawValue }
    public var start: String
    public var startReason: String
    @NullWhenAbsent public var end: String?
    @NullWhenAbsent public var endReason: String?
    public var bytes: Int64
    public var trials = 0
    public var trialsByMode: [String: Int] = [:]
    public var endings: [String: Int] = [:]
    /// Accuracy by `training` (all training modes) and `Verify`: both keys
    /// always, with zero counts where the recording has no such trial.
    public var accuracy: [String: Accuracy] = ["training": Accuracy(), "Verify": Accuracy()]
    public var presses = 0
    public var pressesBySource: [String: Int] = [:]
    public var frames = 0
    /// Frames run late (`missed` = 1) plus frames skipped to catch up.
    public var missedFrames = 0
    /// Of those, the frames run late (`frames.csv` rows with `missed` 1)
    /// and the frames skipped to catch up (`missedFrame` events' `skipped`).
    public var framesLate = 0, framesSkipped = 0
    public var decoderMessagesIn = 0
    public var decoderMessagesOut = 0
    /// `out` messages the link dropped before they reached the socket (`unsent` lines).
    public var decoderMessagesUnsent = 0
    public var decoderDisconnects = 0
    /// What the decoder said in LOG messages (its calibration, choices,
    /// threshold, problems), each after its engine time, in order: the
    /// first ``decoderLogShown``; `decoderLogCount` counts them all.
    public var decoderLog: [String] = []
    public var decoderLogCount = 0
    /// How many LOG lines ``decoderLog`` keeps.
    public static let decoderLogShown = 100
    /// Lines the writer dropped because the disk could not keep up.
    public var droppedLines = 0
    /// Recording problems reported in `events.jsonl`.
    public var problems = 0
    /// Files whose last line was cut off (by a crash).
    public var partialLines = 0
    public var spans = Spans()
    /// What does not add up, one sentence each: a file every recording
    /// writes that is missing, lines that cannot be read (not a cut-off
    /// last line), `trials.jsonl` or `presses.csv` holding fewer entries
    /// than `events.jsonl` logged (more, too, in a closed recording), a
    /// time no clock keeps.
    public var inconsistencies: [String] = []

    /// Reads the recording `entry`.
    public init(_ entry: RecordingEntry) {
        folder = entry.folderName
        state = entry.state.rawValue
        start = RecordingName.format(entry.name.start)
        startReason = entry.name.startReason
        end = entry.name.end.map(RecordingName.format)
        endReason = entry.name.endReason
        bytes = entry.size
        read(entry.url)
    }

    /// What does not add up in the recording folder at `url`
    /// (``inconsistencies``), read as `recordings show` reads it, a file
    /// missing only when among `required`; for tools that take a folder by
    /// path (BIDS export).
    public static func inconsistencies(of url: URL, required: [RecordingFile]) -> [String] {
        var summary = RecordingSummary(folder: url.lastPathComponent)
        summary.read(url, required: required)
        return summary.inconsistencies
    }

    private init(folder: String) {
        (self.folder, state, start, startReason, bytes) = (folder, "", "", "", 0)
    }

    private mutating func read(_ url: URL, required: [RecordingFile] = [.events, .decoder, .frames, .settings]) {
        let trialList = readTrials(url)
        let predictions = readDecoder(url)
        readPresses(url)
        readFrames(url)
        let logged = readEvents(url)
        score(trialList, predictions: predictions)
        check(url, logged: logged, required: required)
    }
}
