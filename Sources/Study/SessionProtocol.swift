import Foundation
import NoiseTagging
import JSONSupport
import LabFormats

/// A study session's protocol: the same steps, in order, for every
/// participant. Read from a JSON file (Protocols/session.md, with its JSON
/// Schema); every field is checked when it is read, so a bad protocol
/// fails before the participant sits down, with one line naming the step
/// and the field (``SessionProtocolError``).
public struct SessionProtocol: Sendable, Equatable {
    /// The protocol's name.
    public var name: String
    /// A longer description, if any.
    public var description: String?
    /// Engine settings for the whole session, by title name.
    public var settings: [String: NoiseTagSettingValue]
    /// The steps, in order.
    public var steps: [SessionStep]
    /// The protocol exactly as read (kept in the session folder).
    public var json: JSONValue

    /// The step kinds a protocol may name.
    public static let kinds = StepResult.kinds

    /// Reads and checks the protocol at `url`.
    public static func load(from url: URL) throws(SessionProtocolError) -> SessionProtocol {
        let source = url.lastPathComponent
        let data: Data
        do { data = try JSONFile.contents(of: url) } catch {
            throw SessionProtocolError(source: url.path, step: nil, kind: nil, field: nil, reason: error.reason)
        }
        return try parse(data, source: source)
    }

    /// Reads and checks a protocol from JSON `data`; `source` names it in errors.
    public static func parse(_ data: Data, source: String = "protocol") throws(SessionProtocolError) -> SessionProtocol {
        let value: JSONValue
        // Checked first: Foundation's reader takes some text that is not JSON (a trailing comma).
        if let problem = JSONProblem.syntax(in: data) {
            throw SessionProtocolError(source: source, step: nil, kind: nil, field: nil, reason: "is not valid JSON (\(problem))")
        }
        do { value = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw SessionProtocolError(source: source, step: nil, kind: nil, field: nil,
                                       reason: "is not valid JSON (\(JSONProblem.beyondReach(in: data) ?? JSONProblem.syntax(in: data) ?? Self.jsonProblem(error)))")
        }
        if let duplicate = JSONProblem.duplicateKey(in: data) {
            throw SessionProtocolError(source: source, step: nil, kind: nil, field: nil, reason: "sets a key twice: \(duplicate)")
        }
        return try parse(value, source: source)
    }

    /// Checks a protocol already read as JSON.
    public static func parse(_ value: JSONValue, source: String = "protocol") throws(SessionProtocolError) -> SessionProtocol {
        var top = FieldReader(source: source, step: nil, kind: nil, object: [:])
        guard let object = value.object else { throw top.error(nil, "must be a JSON object, not \(value.typeName)") }
        top.object = object
        try top.allow(["name", "description", "settings", "steps"])
        let name = try top.string("name") ?? "session"
        try top.checkName(name)
        let description = try top.string("description")
        let settings = try top.settings()
        guard let stepsValue = object["steps"] else { throw top.error("steps", "is missing (a list of steps)") }
        guard let list = stepsValue.array else { throw top.error("steps", "must be an array of steps, not \(stepsValue.typeName)") }
        guard !list.isEmpty else { throw top.error("steps", "is empty: a protocol needs at least one step") }
        var steps: [SessionStep] = []
        var names = Set<String>()
        for (index, item) in list.enumerated() {
            let step = try parseStep(item, number: index + 1, source: source)
            guard names.insert(step.name).inserted else {
                throw SessionProtocolError(source: source, step: index + 1, kind: step.kind.name, field: "name",
                                           reason: "\"\(step.name)\" is already the name of an earlier step (give each step its own name)")
            }
            steps.append(step)
        }
        return SessionProtocol(name: name, description: description, settings: settings, steps: steps, json: value)
    }

    private static func parseStep(_ value: JSONValue, number: Int, source: String) throws(SessionProtocolError) -> SessionStep {
        var r = FieldReader(source: source, step: number, kind: nil, object: [:])
        guard let object = value.object else { throw r.error(nil, "must be a JSON object, not \(value.typeName)") }
        r.object = object
        guard let kind = try r.string("kind") else { throw r.error("kind", "is missing (one of \(kinds.joined(separator: ", ")))") }
        guard kinds.contains(kind) else { throw r.error("kind", "\"\(kind)\" is not a step kind (one of \(kinds.joined(separator: ", ")))") }
        r.kind = kind
        let common = ["kind", "name", "settings"]
        let parsed: SessionStep.Kind
        switch kind {
        case "instructions":
            try r.allow(common + ["text", "continueOn", "seconds"])
            let text = try r.requiredString("text")
            let mode = try r.string("continueOn") ?? "key"
            guard let continueOn = SessionStep.Continue(rawValue: mode) else { throw r.error("continueOn", "\"\(mode)\" must be \"key\" or \"seconds\"") }
            let seconds = try r.seconds("seconds")
            if continueOn == .seconds, seconds == nil { throw r.error("seconds", "is missing (continueOn is \"seconds\")") }
            parsed = .instructions(text: text, continueOn: continueOn, seconds: seconds)
        case "signalCheck":
            try r.allow(common + ["seconds", "maxNoise", "channelMaxNoise", "minGoodChannels", "onFailure", "attempts"])
            let seconds = try r.requiredSeconds("seconds")
            var criteria = SessionStep.SignalCriteria()
            if let limit = try r.number("maxNoise") {
                guard (0...1).contains(limit) else { throw r.error("maxNoise", "\(limit) must be between 0 and 1 (the noise fraction of a channel)") }
                criteria.maxNoise = limit
            }
            if let channels = r.object["channelMaxNoise"] {
                guard let map = channels.object else { throw r.error("channelMaxNoise", "must be an object of channel number → limit, not \(channels.typeName)") }
                for (key, limitValue) in map.sorted(by: { $0.key < $1.key }) {
                    guard let channel = Int(key), channel >= 1, String(channel) == key else { throw r.error("channelMaxNoise", "\"\(key)\" is not a channel number (1, 2, …)") }
                    guard let limit = limitValue.number, (0...1).contains(limit) else {
                        throw r.error("channelMaxNoise", "channel \(key): the limit must be a number between 0 and 1")
                    }
                    criteria.channelMaxNoise[channel] = limit
                }
            }
            criteria.minimumGoodChannels = try r.integer("minGoodChannels", in: 1...1024)
            let failure = try r.string("onFailure") ?? "repeat"
            guard let onFailure = SessionStep.OnFailure(rawValue: failure) else {
                throw r.error("onFailure", "\"\(failure)\" must be \"repeat\", \"stop\" or \"continue\"")
            }
            let attempts = try r.integer("attempts", in: 1...20) ?? 3
            parsed = .signalCheck(seconds: seconds, criteria: criteria, onFailure: onFailure, attempts: attempts)
        case "calibration":
            try r.allow(common + ["trials", "trialSeconds", "layout"])
            // At least 5: the decoder cross-validates its fit in 5 folds (the demo asks as many).
            guard let trials = try r.integer("trials", in: 5...500) else { throw r.error("trials", "is missing (the number of cued trials, 5 or more)") }
            let trialSeconds = try r.seconds("trialSeconds")
            // It becomes the engine's trialDurationGenericTrain: held to that setting's range here, not refused at run time.
            if let trialSeconds {
                do { try NoiseTagSettings().set(value: .double(trialSeconds), for: .trialDurationGenericTrain) } catch {
                    throw r.error("trialSeconds", "\(error)")
                }
            }
            let layout = try r.string("layout") ?? "keyboard"
            guard layout == "keyboard" else { throw r.error("layout", "\"\(layout)\" is not a layout (\"keyboard\": the 28-key speller)") }
            parsed = .calibration(trials: trials, trialSeconds: trialSeconds, layout: layout)
        case "copySpell":
            try r.allow(common + ["text", "timeLimit"])
            parsed = .copySpell(text: try r.spellable("text"), timeLimit: try r.seconds("timeLimit") ?? 300)
        case "freeSpell":
            try r.allow(common + ["seconds", "untilWord", "text"])
            let seconds = try r.seconds("seconds")
            let word = try r.object["untilWord"] == nil ? nil : r.spellable("untilWord")
            if seconds == nil, word == nil { throw r.error(nil, "needs \"seconds\", \"untilWord\" or both") }
            let text = try r.object["text"] == nil ? (word ?? "HELLO WORLD") : r.spellable("text")
            if seconds == nil, let word, !text.indices.contains(where: { SessionStep.endsWithWord(String(text[...$0]), word) }) {
                throw r.error("text", "the simulated participant types \"\(text)\", which never ends in the word \"\(word)\", "
                              + "and no seconds are given: the step would never end (give seconds, or a text that types the word)")
            }
            parsed = .freeSpell(seconds: seconds, untilWord: word, text: text)
        case "noControl":
            try r.allow(common + ["seconds"])
            parsed = .noControl(seconds: try r.requiredSeconds("seconds"))
        case "zeroTrain":
            try r.allow(common + ["text", "timeLimit"])
            parsed = .zeroTrain(text: try r.spellable("text"), timeLimit: try r.seconds("timeLimit") ?? 300)
        case "break":
            try r.allow(common + ["seconds", "skippable"])
            parsed = .rest(seconds: try r.requiredSeconds("seconds"), skippable: try r.bool("skippable") ?? true)
        default:
            try r.allow(common + ["items"])
            parsed = .questionnaire(items: try r.items())
        }
        let settings = try r.settings()
        // The step's fields and its settings must not say two things: the settings would silently win.
        if case .calibration(_, let trialSeconds, _) = parsed {
            if settings["nGenericTrainTrials"] != nil {
                throw r.error("settings", "nGenericTrainTrials: the step's trials field sets the calibration trials; give it there only")
            }
            if trialSeconds != nil, settings["trialDurationGenericTrain"] != nil {
                throw r.error("settings", "trialDurationGenericTrain: the step's trialSeconds field sets it; give it there only")
            }
        }
        let name = try r.string("name") ?? (kind == "break" ? "break \(number)" : kind)
        try r.checkName(name)
        return SessionStep(name: name, kind: parsed, settings: settings)
    }

    private static func jsonProblem(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
        }
        return "\(error)"
    }
}
