import Foundation

/// Reads an event back from its flat JSON form (``NoiseTagEvent/jsonLine``,
/// or an `events.jsonl` line of a recording, whose extra `wall_time` is
/// ignored), so an app or a QA script can load its own event log. A
/// `recordingStarted` without `format` is format 1 (``RecordingFormat``);
/// that format's `settingChanged` lines, which lack `source`, do not read.
extension NoiseTagEvent: Decodable {
    /// Reads `time`, `type` and the kind's fields; an unknown `type` or a
    /// missing field is a `DecodingError` that names it.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: EventJSONKey.self)
        self.init(time: try c.decode(Double.self, forKey: "time"), kind: try Kind(flatFrom: decoder))
    }
}

extension NoiseTagEvent.Kind {
    /// The kind whose `type` and fields sit in the decoder's top-level object.
    init(flatFrom decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: EventJSONKey.self)
        func value<T: Decodable>(_ key: EventJSONKey, _ type: T.Type = T.self) throws -> T { try c.decode(T.self, forKey: key) }
        func optional<T: Decodable>(_ key: EventJSONKey, _ type: T.Type = T.self) throws -> T? { try c.decodeIfPresent(T.self, forKey: key) }
        let type: String = try value("type")
        switch type {
        case "trialStarted": self = .trialStarted(try NoiseTagEvent.TrialStart(from: decoder))
        case "trialPhase": self = .trialPhase(trial: try value("trial"), phase: try value("phase"))
        case "trialEnded": self = .trialEnded(try NoiseTagEvent.TrialEnd(from: decoder))
        case "press": self = .press(try NoiseTagEvent.Press(from: decoder))
        case "noPress": self = .noPress(trial: try value("trial"))
        case "selectionRevised": self = .selectionRevised(try NoiseTagEvent.SelectionRevision(from: decoder))
        case "decoderCalibration": self = .decoderCalibration(try NoiseTagEvent.DecoderCalibration(from: decoder))
        case "feedbackStarted":
            self = .feedbackStarted(mode: try value("mode"), source: try optional("source"), duration: try value("duration"))
        case "feedbackEnded": self = .feedbackEnded
        case "actionRan": self = .actionRan(control: try value("control"), timing: try value("timing"))
        case "clickSound": self = .clickSound(control: try value("control"))
        case "blocked": self = .blocked(reason: try value("reason"), duration: try optional("duration"))
        case "unblocked": self = .unblocked(reason: try value("reason"))
        case "trialsRunning": self = .trialsRunning(try value("value"))
        case "unitPushed": self = .unitPushed(depth: try value("depth"), context: try optional("context"))
        case "unitPopped": self = .unitPopped(depth: try value("depth"), context: try optional("context"))
        case "unitUpdated": self = .unitUpdated(depth: try value("depth"), context: try optional("context"))
        case "modeChanged": self = .modeChanged(from: try value("from"), to: try value("to"), explanation: try optional("explanation"))
        case "modeConfirmed": self = .modeConfirmed(mode: try value("mode"), confirmed: try value("confirmed"))
        case "settingChanged": self = .settingChanged(title: try value("title"), value: try value("value"), source: try value("source"))
        case "call": self = .call(try AppCall(from: decoder))
        case "missedFrame": self = .missedFrame(index: try value("index"), lateness: try value("lateness"), skipped: try value("skipped"))
        case "sound": self = .sound(name: try value("name"))
        case "codebookLoaded": self = .codebookLoaded(source: try value("source"), codes: try value("codes"), length: try value("length"))
        case "refused": self = .refused(call: try value("call"), reason: try value("reason"))
        case "notice": self = .notice(try value("value"))
        case "decoderConnection": self = .decoderConnection(state: try value("state"), alarm: try value("alarm"))
        case "decoderProblem": self = .decoderProblem(try value("value"))
        case "lifecycle": self = .lifecycle(try value("value"))
        case "recordingStarted": self = .recordingStarted(folder: try value("folder"), reason: try value("reason"), format: try optional("format") ?? 1)
        case "recordingEnded": self = .recordingEnded(folder: try value("folder"), reason: try value("reason"))
        case "recordingProblem":
            self = .recordingProblem(path: try value("path"), reason: try value("reason"), loggingOff: try value("loggingOff"))
        case "recordingLinesDropped": self = .recordingLinesDropped(frameLines: try value("frameLines"), otherLines: try value("otherLines"))
        default:
            throw DecodingError.dataCorruptedError(forKey: "type", in: c, debugDescription: "unknown event type '\(type)'")
        }
    }
}
