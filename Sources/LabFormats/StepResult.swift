import Foundation
import JSONSupport

/// One finished step's result, one line of the session folder's
/// `steps.jsonl` (Protocols/session.md): written, and flushed to disk, the
/// moment the step ends, so a crash or Ctrl-C loses no finished step.
/// A study session writes it; the BIDS export reads it back for the
/// session's step events.
public struct StepResult: Sendable, Equatable, Codable {
    /// The step kinds a session protocol may name (Protocols/session.md).
    public static let kinds = ["instructions", "signalCheck", "calibration", "copySpell", "freeSpell", "noControl",
                               "zeroTrain", "break", "questionnaire"]

    /// The step's 1-based number in the protocol.
    public var step: Int
    /// Its kind (`calibration`, `break`, …).
    public var kind: String
    /// Its name.
    public var name: String
    /// Engine-clock seconds it started and ended (the clock of the recordings' `time` fields).
    public var startTime: Double
    /// See ``startTime``.
    public var endTime: Double
    /// Unix seconds it started and ended.
    public var startWallTime: Double
    /// See ``startWallTime``.
    public var endWallTime: Double
    /// How it ended: `done`, `passed`, `failed`, `timeout`, `skipped`.
    public var outcome: String
    /// What it measured (accuracy, presses, noise per channel, …), by name.
    public var measures: [String: JSONValue]
    /// A questionnaire's answers, in item order (empty for other steps).
    public var answers: [Answer]
    /// The engine recording folders it wrote into, each named as it was
    /// while open ("2026-11-25 16.27.19 +0000 App started"): a closed
    /// folder's name begins with it (" – training 2026-…" is added on closing).
    public var recordings: [String]

    /// One questionnaire answer.
    public struct Answer: Sendable, Equatable, Codable {
        /// The item's id.
        public var item: String
        /// The key pressed, 1…N.
        public var key: Int
        /// What it means: the Likert point or the choice's text.
        public var answer: String
        /// Seconds from the question appearing to the key.
        public var seconds: Double

        /// An answer from its parts.
        public init(item: String, key: Int, answer: String, seconds: Double) {
            self.item = item
            self.key = key
            self.answer = answer
            self.seconds = seconds
        }
    }

    /// A result from its parts.
    public init(step: Int, kind: String, name: String, startTime: Double, endTime: Double, startWallTime: Double,
                endWallTime: Double, outcome: String, measures: [String: JSONValue], answers: [Answer], recordings: [String]) {
        self.step = step
        self.kind = kind
        self.name = name
        self.startTime = startTime
        self.endTime = endTime
        self.startWallTime = startWallTime
        self.endWallTime = endWallTime
        self.outcome = outcome
        self.measures = measures
        self.answers = answers
        self.recordings = recordings
    }

    enum CodingKeys: String, CodingKey {
        case step, kind, name, outcome, measures, answers, recordings
        case startTime = "start_time", endTime = "end_time"
        case startWallTime = "start_wall_time", endWallTime = "end_wall_time"
    }

    /// Seconds from start to end.
    public var duration: Double { endTime - startTime }

    /// The line written to `steps.jsonl` (keys sorted, no line break).
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
