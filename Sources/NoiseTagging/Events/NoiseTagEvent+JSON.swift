import Foundation

/// The flat JSON form of an event: `time`, `type` (the kind's case name),
/// then the kind's fields at the same level. A kind whose payload is a
/// struct (a press, a trial start or end) gives that struct's fields; a
/// single plain value is `value`; absent optionals are left out.
extension NoiseTagEvent: Encodable {
    /// Writes the event in its flat form, in one pass.
    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: EventJSONKey.self)
        try fields.encode(time, forKey: "time")
        try kind.encodeFlat(to: encoder)
    }

    /// The event as one flat JSON object on one line: `time`, `type`, then
    /// the kind's fields, e.g.
    /// `{"control":"b3","objectID":3,"source":"brain","time":2.5,"trial":1,"type":"press"}`.
    /// Keys are sorted, so the same event always gives the same text.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{\"time\":\(time),\"type\":\"unencodable\"}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A JSON key of an event line, written as a string literal.
struct EventJSONKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    init(stringLiteral value: String) { stringValue = value }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

extension NoiseTagEvent.Kind {
    /// Writes `type` and this kind's fields into the encoder's top-level object.
    func encodeFlat(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: EventJSONKey.self)
        switch self {
        case .trialStarted(let start):
            try c.encode("trialStarted", forKey: "type")
            try start.encode(to: encoder)
        case .trialPhase(let trial, let phase):
            try c.encode("trialPhase", forKey: "type")
            try c.encode(trial, forKey: "trial")
            try c.encode(phase, forKey: "phase")
        case .trialEnded(let end):
            try c.encode("trialEnded", forKey: "type")
            try end.encode(to: encoder)
        case .press(let press):
            try c.encode("press", forKey: "type")
            try press.encode(to: encoder)
        case .noPress(let trial):
            try c.encode("noPress", forKey: "type")
            try c.encode(trial, forKey: "trial")
        case .selectionRevised(let revision):
            try c.encode("selectionRevised", forKey: "type")
            try revision.encode(to: encoder)
        case .feedbackStarted(let mode, let source, let duration):
            try c.encode("feedbackStarted", forKey: "type")
            try c.encode(mode, forKey: "mode")
            try c.encodeIfPresent(source, forKey: "source")
            try c.encode(duration, forKey: "duration")
        case .feedbackEnded:
            try c.encode("feedbackEnded", forKey: "type")
        case .actionRan(let control, let timing):
            try c.encode("actionRan", forKey: "type")
            try c.encode(control, forKey: "control")
            try c.encode(timing, forKey: "timing")
        case .clickSound(let control):
            try c.encode("clickSound", forKey: "type")
            try c.encode(control, forKey: "control")
        case .blocked(let reason, let duration):
            try c.encode("blocked", forKey: "type")
            try c.encode(reason, forKey: "reason")
            try c.encodeIfPresent(duration, forKey: "duration")
        case .unblocked(let reason):
            try c.encode("unblocked", forKey: "type")
            try c.encode(reason, forKey: "reason")
        case .trialsRunning(let running):
            try c.encode("trialsRunning", forKey: "type")
            try c.encode(running, forKey: "value")
        case .unitPushed(let depth, let context), .unitPopped(let depth, let context), .unitUpdated(let depth, let context):
            try c.encode(unitEventType, forKey: "type")
            try c.encode(depth, forKey: "depth")
            try c.encodeIfPresent(context, forKey: "context")
        case .modeChanged(let from, let to, let explanation):
            try c.encode("modeChanged", forKey: "type")
            try c.encode(from, forKey: "from")
            try c.encode(to, forKey: "to")
            try c.encodeIfPresent(explanation, forKey: "explanation")
        case .modeConfirmed(let mode, let confirmed):
            try c.encode("modeConfirmed", forKey: "type")
            try c.encode(mode, forKey: "mode")
            try c.encode(confirmed, forKey: "confirmed")
        case .settingChanged(let title, let value, let source):
            try c.encode("settingChanged", forKey: "type")
            try c.encode(title, forKey: "title")
            try c.encode(value, forKey: "value")
            try c.encode(source, forKey: "source")
        case .call(let call):
            try c.encode("call", forKey: "type")
            try call.encode(to: encoder)
        case .missedFrame(let index, let lateness, let skipped):
            try c.encode("missedFrame", forKey: "type")
            try c.encode(index, forKey: "index")
            try c.encode(lateness, forKey: "lateness")
            try c.encode(skipped, forKey: "skipped")
        case .sound(let name):
            try c.encode("sound", forKey: "type")
            try c.encode(name, forKey: "name")
        case .codebookLoaded(let source, let codes, let length):
            try c.encode("codebookLoaded", forKey: "type")
            try c.encode(source, forKey: "source")
            try c.encode(codes, forKey: "codes")
            try c.encode(length, forKey: "length")
        case .refused(let call, let reason):
            try c.encode("refused", forKey: "type")
            try c.encode(call, forKey: "call")
            try c.encode(reason, forKey: "reason")
        case .notice(let text):
            try c.encode("notice", forKey: "type")
            try c.encode(text, forKey: "value")
        case .decoderConnection(let state, let alarm):
            try c.encode("decoderConnection", forKey: "type")
            try c.encode(state, forKey: "state")
            try c.encode(alarm, forKey: "alarm")
        case .decoderProblem(let text):
            try c.encode("decoderProblem", forKey: "type")
            try c.encode(text, forKey: "value")
        case .lifecycle(let change):
            try c.encode("lifecycle", forKey: "type")
            try c.encode(change, forKey: "value")
        case .recordingStarted(let folder, let reason, let format):
            try c.encode("recordingStarted", forKey: "type")
            try c.encode(folder, forKey: "folder")
            try c.encode(reason, forKey: "reason")
            try c.encode(format, forKey: "format")
        case .recordingEnded(let folder, let reason):
            try c.encode("recordingEnded", forKey: "type")
            try c.encode(folder, forKey: "folder")
            try c.encode(reason, forKey: "reason")
        case .recordingProblem(let path, let reason, let loggingOff):
            try c.encode("recordingProblem", forKey: "type")
            try c.encode(path, forKey: "path")
            try c.encode(reason, forKey: "reason")
            try c.encode(loggingOff, forKey: "loggingOff")
        case .recordingLinesDropped(let frameLines, let otherLines):
            try c.encode("recordingLinesDropped", forKey: "type")
            try c.encode(frameLines, forKey: "frameLines")
            try c.encode(otherLines, forKey: "otherLines")
        }
    }

    private var unitEventType: String {
        switch self {
        case .unitPushed: return "unitPushed"
        case .unitPopped: return "unitPopped"
        default: return "unitUpdated"
        }
    }
}
