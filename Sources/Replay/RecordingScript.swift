import Foundation
import JSONSupport
import NoiseTagging

/// Everything replay needs from one recording folder, read and checked:
/// the settings snapshot, the engine events that set up and stop trials
/// (trial starts with their logged state, setting changes, app calls, trial
/// ends), the frame loop's ticks, and every message to and from the
/// decoder. Lines cut off by a crash are left out and counted; unknown event
/// kinds and columns (a newer engine) are skipped and counted; anything
/// else that cannot be read is a ``RecordingReadError`` naming file and line.
public struct RecordingScript: Sendable {
    /// The folder read.
    public let folder: URL
    /// True when the folder name has no right part (open or crashed, Protocols/recordings.md §2).
    public let isOpen: Bool
    /// True when an engine still writes it (it holds the folder's lock): open, not crashed.
    public let isLive: Bool
    /// The recording format its engine wrote (``RecordingFormat``): 1 when
    /// `recordingStarted` has no `format` (before replay support).
    public var format = 1
    /// `settings.json`: every setting by title when the recording started.
    public var settings: [String: NoiseTagSettingValue] = [:]
    /// Trial starts in log order.
    public var starts: [Logged<NoiseTagEvent.TrialStart>] = []
    /// Trial ends in log order.
    public var ends: [Logged<NoiseTagEvent.TrialEnd>] = []
    /// Presses in log order.
    public var presses: [Logged<NoiseTagEvent.Press>] = []
    /// Every `settingChanged`, in log order.
    public var settingChanges: [Logged<SettingChange>] = []
    /// Every app call, in log order.
    public var calls: [Logged<AppCall>] = []
    /// `modeChanged` events: (from, to, explanation), in log order.
    public var modeChanges: [Logged<ModeChangeRecord>] = []
    /// The frame loop's ticks (`frames.csv`), in order.
    public var ticks: [Tick] = []
    /// Messages the decoder sent, as drained by the engine, in order.
    public var incoming: [Message] = []
    /// Times the engine reported its decoder `connected` (`decoderConnection`
    /// events), in order: a replay's link reports a connection there, and the
    /// engine, as live, acts only on one while it hears its decoder (a decoder
    /// restarted within `decoderTimeout`).
    public var connections: [Double] = []
    /// Messages the engine sent, in order.
    public var outgoing: [Message] = []
    /// `trials.jsonl` by trial number.
    public var recordedTrials: [Int: RecordedTrial] = [:]
    /// `events.jsonl` holds no event at all.
    private var eventLogEmpty = false
    /// What was skipped while reading: cut-off last lines, unknown kinds and
    /// columns, settings this engine does not know, each as one sentence.
    public var notes: [String] = []

    /// An item of `events.jsonl` with its place in the file (its order
    /// relative to the other events) and its engine time.
    public struct Logged<Value: Sendable>: Sendable {
        /// 0-based position among the file's events.
        public var order: Int
        /// 1-based line number, for messages.
        public var line: Int
        /// Engine seconds.
        public var time: Double
        /// The event's content.
        public var value: Value
    }

    /// A `settingChanged` event.
    public struct SettingChange: Sendable {
        public var title: String
        public var value: String
        /// Who changed it; nil in recordings made before sources were logged.
        public var source: SettingSource?
    }

    /// A `modeChanged` event.
    public struct ModeChangeRecord: Sendable {
        public var from: String
        public var to: String
        public var explanation: String?
    }

    /// One row of `frames.csv`: one engine tick.
    public struct Tick: Sendable, Equatable {
        public var index: Int
        public var deadline: Double
        public var time: Double
    }

    /// One row of `decoder.csv`.
    public struct Message: Sendable, Equatable {
        public var time: Double
        /// The message id letter (`E`, `P`, …).
        public var id: Character
        /// The bytes as they crossed the link.
        public var bytes: [UInt8]
        /// 1-based line in `decoder.csv`.
        public var line: Int
    }

    /// Reads `folder`. Throws when a file replay needs is missing or a line
    /// in the middle of a file cannot be read.
    public init(folder: URL) throws(RecordingReadError) {
        self.folder = folder
        isOpen = RecordingName(folderName: folder.lastPathComponent)?.isOpen ?? true
        isLive = isOpen && RecordingStore.isLive(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RecordingReadError(file: folder.path, line: 0, reason: "no such recording folder")
        }
        try readSettings()
        try readEvents()
        try readTrials()
        try readFrames()
        try readDecoder()
        if eventLogEmpty, !recordedTrials.isEmpty {
            throw RecordingReadError(file: "events.jsonl", line: 0,
                                     reason: "holds no event, but trials.jsonl records \(recordedTrials.count): the event log was emptied or lost, so there is nothing to replay them from")
        }
    }

    // MARK: Files

    /// The file's complete lines (``RecordingFileReader`` leaves out one cut off by a crash, noted here).
    private mutating func lines(_ name: String, required: Bool) throws(RecordingReadError) -> [Substring]? {
        let reader = RecordingFileReader(folder.appendingPathComponent(name))
        guard reader.exists else {
            if required { throw RecordingReadError(file: name, line: 0, reason: "missing or unreadable: replay needs it") }
            return nil
        }
        if reader.endsWithPartialLine {
            notes.append("\(name): the last line was cut off (\(isOpen ? "a crash" : "damage: the recording was closed, so its lines were complete")); it is ignored")
        }
        var all: [Substring] = []
        reader.forEachLine { all.append($0) }
        return all
    }

    /// Every setting by title as it stood just before the event at `order`:
    /// `settings.json`, then each `settingChanged` logged before it, whoever made it.
    func settingValues(before order: Int, ignoring source: SettingSource? = nil) -> [String: NoiseTagSettingValue] {
        var values = settings
        for change in settingChanges where change.order < order && (source == nil || change.value.source != source) {
            guard let title = NoiseTagSettingTitles(name: change.value.title) else { continue }
            values[title.rawValue] = NoiseTagSettingValue(typed: change.value.value, for: title.definition.kind)
        }
        return values
    }

    private mutating func readSettings() throws(RecordingReadError) {
        let name = "settings.json"
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else {
            throw RecordingReadError(file: name, line: 0, reason: "missing or unreadable: replay needs the settings the recording started with")
        }
        do {
            settings = try JSONDecoder().decode([String: NoiseTagSettingValue].self, from: data)
        } catch {
            throw RecordingReadError(file: name, line: 0, reason: JSONProblem.notAnObject(of: "settings", error, in: data))
        }
        let unknown = settings.keys.filter { NoiseTagSettingTitles(name: $0) == nil }.sorted()
        if !unknown.isEmpty { notes.append("\(name): settings this engine does not know are ignored: \(unknown.joined(separator: ", "))") }
    }

    struct EventHead: Decodable {
        var type: String
        var time: Double
    }

    struct SettingLine: Decodable {
        var title: String
        var value: String
        var source: SettingSource?
    }

    struct StartLine: Decodable {
        var format: Int?
    }

    struct ConnectionLine: Decodable {
        var state: String
    }

    struct ModeLine: Decodable {
        var from: String
        var to: String
        var explanation: String?
    }

    private mutating func readEvents() throws(RecordingReadError) {
        let name = "events.jsonl"
        let all = try lines(name, required: true) ?? []
        let decoder = JSONDecoder()
        var unknown: [String: Int] = [:]
        var sawStart = false
        var startLines: [Int: Int] = [:]   // each trial's trialStarted line
        for (offset, line) in all.enumerated() where !line.isEmpty {
            let number = offset + 1
            let data = Data(line.utf8)
            var what = "event line"
            func decode<T: Decodable>(_ type: T.Type) throws(RecordingReadError) -> T {
                do { return try decoder.decode(type, from: data) } catch {
                    throw RecordingReadError(file: name, line: number, reason: "unreadable \(what): \(JSONProblem.describe(error, decoding: type, from: data, with: decoder))")
                }
            }
            let head = try decode(EventHead.self)
            what = "\(head.type) event"
            switch head.type {
            case "trialStarted":
                let start = try decode(NoiseTagEvent.TrialStart.self)
                // The engine numbers each trial once: a second start is a line written twice (or edited).
                if let first = startLines.updateValue(number, forKey: start.trial) {
                    throw RecordingReadError(file: name, line: number, reason: "trial \(start.trial) starts a second time (first at line \(first)): a line written twice?")
                }
                starts.append(Logged(order: offset, line: number, time: head.time, value: start))
            case "trialEnded":
                ends.append(Logged(order: offset, line: number, time: head.time, value: try decode(NoiseTagEvent.TrialEnd.self)))
            case "press":
                presses.append(Logged(order: offset, line: number, time: head.time, value: try decode(NoiseTagEvent.Press.self)))
            case "settingChanged":
                let change = try decode(SettingLine.self)
                settingChanges.append(Logged(order: offset, line: number, time: head.time,
                                             value: SettingChange(title: change.title, value: change.value, source: change.source)))
            case "call":
                calls.append(Logged(order: offset, line: number, time: head.time, value: try decode(AppCall.self)))
            case "modeChanged":
                let change = try decode(ModeLine.self)
                modeChanges.append(Logged(order: offset, line: number, time: head.time,
                                          value: ModeChangeRecord(from: change.from, to: change.to, explanation: change.explanation)))
            case "decoderConnection":
                if try decode(ConnectionLine.self).state == DecoderConnectionState.connected.rawValue { connections.append(head.time) }
            case "recordingStarted":
                format = (try decode(StartLine.self)).format ?? 1
                sawStart = true
            case "trialPhase", "noPress", "selectionRevised", "decoderCalibration", "feedbackStarted", "feedbackEnded", "actionRan", "clickSound", "sound", "blocked",
                 "unblocked", "trialsRunning", "unitPushed", "unitPopped", "unitUpdated", "modeConfirmed", "codebookLoaded",
                 "missedFrame", "decoderProblem", "notice", "refused", "lifecycle",
                 "recordingEnded", "recordingProblem", "recordingLinesDropped":
                break
            default:
                unknown[head.type, default: 0] += 1
            }
        }
        if all.allSatisfy(\.isEmpty) {
            eventLogEmpty = true
            notes.append("events.jsonl holds no event (the recording stopped before its first line was written, or the file was emptied)")
        } else if !sawStart {
            notes.append("events.jsonl has no recordingStarted line (its first lines are lost): its format is unknown, read as \(RecordingFormat.current)")
            format = RecordingFormat.current
        } else if format < 2 {
            notes.append("recorded by an engine before replay support (recording format \(format)): its trials have no engine state to start from")
        } else if format < RecordingFormat.current {
            notes.append("recorded by an older engine (recording format \(format)): its Verify trials sent no object 0, so this engine's differ from their first frame")
        } else if format > RecordingFormat.current {
            notes.append("recorded by a newer engine (recording format \(format); this one reads \(RecordingFormat.current)): what it does not know is skipped")
        }
        for (type, count) in unknown.sorted(by: { $0.key < $1.key }) {
            notes.append("\(name): \(count) event(s) of kind '\(type)' this engine does not know were skipped")
        }
    }

    private mutating func readTrials() throws(RecordingReadError) {
        let name = "trials.jsonl"
        guard let all = try lines(name, required: false) else { return }
        let decoder = JSONDecoder()
        for (offset, line) in all.enumerated() where !line.isEmpty {
            do {
                let trial = try decoder.decode(RecordedTrial.self, from: Data(line.utf8))
                recordedTrials[trial.trial] = trial
            } catch {
                let reason = JSONProblem.describe(error, decoding: RecordedTrial.self, from: Data(line.utf8), with: decoder)
                throw RecordingReadError(file: name, line: offset + 1, reason: "unreadable trial: \(reason)")
            }
        }
    }

    /// The header's columns, by name; a file without one of `needed` is an error.
    private static func columns(_ header: Substring?, file: String, needed: [String]) throws(RecordingReadError) -> [String: Int] {
        guard let header else { throw RecordingReadError(file: file, line: 1, reason: "empty: no header row") }
        var map: [String: Int] = [:]
        for (i, name) in header.split(separator: ",", omittingEmptySubsequences: false).enumerated() { map[String(name)] = i }
        for column in needed where map[column] == nil {
            throw RecordingReadError(file: file, line: 1, reason: "no '\(column)' column in the header")
        }
        return map
    }

    private mutating func readFrames() throws(RecordingReadError) {
        let name = "frames.csv"
        let all = try lines(name, required: true) ?? []
        let map = try Self.columns(all.first, file: name, needed: ["index", "deadline", "time"])
        let (i, d, t) = (map["index"]!, map["deadline"]!, map["time"]!)
        ticks.reserveCapacity(all.count)
        for (offset, line) in all.enumerated().dropFirst() where !line.isEmpty {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count > max(i, d, t), let index = Int(cells[i]), let deadline = Double(cells[d]),
                  let time = Double(cells[t]) else {
                throw RecordingReadError(file: name, line: offset + 1, reason: "not a frame row (index, deadline, time): '\(line.prefix(80))'")
            }
            guard deadline.isFinite, time.isFinite else {
                throw RecordingReadError(file: name, line: offset + 1, reason: "a time that is no number (deadline \(cells[d]), time \(cells[t])): not a row the engine wrote '\(line.prefix(80))'")
            }
            // The engine numbers its frames upward on one clock: a row that goes back was damaged, not recorded.
            if let last = ticks.last, index <= last.index || time < last.time {
                throw RecordingReadError(file: name, line: offset + 1,
                                         reason: "frame \(index) at \(time) s follows frame \(last.index) at \(last.time) s: not a row the engine wrote '\(line.prefix(80))'")
            }
            ticks.append(Tick(index: index, deadline: deadline, time: time))
        }
    }

    private mutating func readDecoder() throws(RecordingReadError) {
        let name = "decoder.csv"
        let all = try lines(name, required: true) ?? []
        let map = try Self.columns(all.first, file: name, needed: ["time", "direction", "hex"])
        let (t, dir, h) = (map["time"]!, map["direction"]!, map["hex"]!)
        for (offset, line) in all.enumerated().dropFirst() where !line.isEmpty {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count > max(t, dir, h), let time = Double(cells[t]) else {
                throw RecordingReadError(file: name, line: offset + 1, reason: "not a message row (time, …, direction, id, hex): '\(line.prefix(80))'")
            }
            guard time.isFinite else {
                throw RecordingReadError(file: name, line: offset + 1, reason: "time \(cells[t]) is no number: not a row the engine wrote '\(line.prefix(80))'")
            }
            guard let bytes = RecordingLine.bytes(hex: cells[h]), bytes.count >= 4 else {
                throw RecordingReadError(file: name, line: offset + 1, reason: "the hex cell is not a Utopia frame: '\(cells[h].prefix(40))'")
            }
            let message = Message(time: time, id: Character(Unicode.Scalar(bytes[0])), bytes: bytes, line: offset + 1)
            switch cells[dir] {
            case "in": incoming.append(message)
            case "out": outgoing.append(message)
            case "unsent": break     // the link dropped an earlier `out` line's frame; the engine did send it
            default:
                throw RecordingReadError(file: name, line: offset + 1, reason: "direction '\(cells[dir])' is neither in, out nor unsent")
            }
        }
    }
}
