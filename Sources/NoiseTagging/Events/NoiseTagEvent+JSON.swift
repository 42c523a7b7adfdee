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
        let (type, fields) = flatFields
        try c.encode(type, forKey: "type")
        switch fields {
        case .payload(let payload):
            try payload.encode(to: encoder)
        case .named(let named):
            for case let (key, value?) in named { try c.encode(value, forKey: key) }
        }
    }

    /// What an event line holds beside `time` and `type`.
    private enum FlatFields {
        /// A struct whose own keys sit beside `type`.
        case payload(any Encodable)
        /// Named values, in the order they are written; a nil one is left out.
        case named(KeyValuePairs<EventJSONKey, (any Encodable)?>)
    }

    /// The kind's `type` (its case name) and its fields: one row per kind.
    private var flatFields: (type: String, fields: FlatFields) {
        switch self {
        case .trialStarted(let start): return ("trialStarted", .payload(start))
        case .trialPhase(let trial, let phase): return ("trialPhase", .named(["trial": trial, "phase": phase]))
        case .trialEnded(let end): return ("trialEnded", .payload(end))
        case .press(let press): return ("press", .payload(press))
        case .noPress(let trial): return ("noPress", .named(["trial": trial]))
        case .selectionRevised(let revision): return ("selectionRevised", .payload(revision))
        case .decoderCalibration(let calibration): return ("decoderCalibration", .payload(calibration))
        case .feedbackStarted(let mode, let source, let duration):
            return ("feedbackStarted", .named(["mode": mode, "source": source, "duration": duration]))
        case .feedbackEnded: return ("feedbackEnded", .named([:]))
        case .actionRan(let control, let timing): return ("actionRan", .named(["control": control, "timing": timing]))
        case .clickSound(let control): return ("clickSound", .named(["control": control]))
        case .blocked(let reason, let duration): return ("blocked", .named(["reason": reason, "duration": duration]))
        case .unblocked(let reason): return ("unblocked", .named(["reason": reason]))
        case .trialsRunning(let running): return ("trialsRunning", .named(["value": running]))
        case .unitPushed(let depth, let context): return ("unitPushed", .named(["depth": depth, "context": context]))
        case .unitPopped(let depth, let context): return ("unitPopped", .named(["depth": depth, "context": context]))
        case .unitUpdated(let depth, let context): return ("unitUpdated", .named(["depth": depth, "context": context]))
        case .modeChanged(let from, let to, let explanation):
            return ("modeChanged", .named(["from": from, "to": to, "explanation": explanation]))
        case .modeConfirmed(let mode, let confirmed): return ("modeConfirmed", .named(["mode": mode, "confirmed": confirmed]))
        case .settingChanged(let title, let value, let source):
            return ("settingChanged", .named(["title": title, "value": value, "source": source]))
        case .call(let call): return ("call", .payload(call))
        case .missedFrame(let index, let lateness, let skipped):
            return ("missedFrame", .named(["index": index, "lateness": lateness, "skipped": skipped]))
        case .sound(let name): return ("sound", .named(["name": name]))
        case .codebookLoaded(let source, let codes, let length):
            return ("codebookLoaded", .named(["source": source, "codes": codes, "length": length]))
        case .refused(let call, let reason): return ("refused", .named(["call": call, "reason": reason]))
        case .notice(let text): return ("notice", .named(["value": text]))
        case .decoderConnection(let state, let alarm): return ("decoderConnection", .named(["state": state, "alarm": alarm]))
        case .decoderProblem(let text): return ("decoderProblem", .named(["value": text]))
        case .lifecycle(let change): return ("lifecycle", .named(["value": change]))
        case .recordingStarted(let folder, let reason, let format):
            return ("recordingStarted", .named(["folder": folder, "reason": reason, "format": format]))
        case .recordingEnded(let folder, let reason): return ("recordingEnded", .named(["folder": folder, "reason": reason]))
        case .recordingProblem(let path, let reason, let loggingOff):
            return ("recordingProblem", .named(["path": path, "reason": reason, "loggingOff": loggingOff]))
        case .recordingLinesDropped(let frameLines, let otherLines):
            return ("recordingLinesDropped", .named(["frameLines": frameLines, "otherLines": otherLines]))
        }
    }
}
