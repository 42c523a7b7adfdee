import Foundation

/// One finished step of a session, a line of the session folder's
/// `steps.jsonl`: only what an export needs; unknown keys are ignored.
public struct RecordedStep: Sendable, Equatable, Decodable {
    /// The step's 1-based number in the protocol.
    public var step: Int
    /// Its kind (`calibration`, `break`, `questionnaire`, …).
    public var kind: String
    /// Its name.
    public var name: String
    /// Engine seconds it started and ended (the recordings' clock).
    public var startTime: Double
    /// See ``startTime``.
    public var endTime: Double
    /// `done`, `passed`, `failed`, `timeout`, `skipped`; nil when absent.
    public var outcome: String?

    /// A step from its parts.
    public init(step: Int, kind: String, name: String, startTime: Double, endTime: Double, outcome: String?) {
        self.step = step
        self.kind = kind
        self.name = name
        self.startTime = startTime
        self.endTime = endTime
        self.outcome = outcome
    }

    enum CodingKeys: String, CodingKey {
        case step, kind, name, outcome
        case startTime = "start_time", endTime = "end_time"
    }
}
