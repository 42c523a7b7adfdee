import DecoderService
import Foundation
import NoiseTagging

/// What the engine recorded, read for an export: one engine recording
/// folder (Protocols/recordings.md), or a *session folder* (`session.json`,
/// `steps.jsonl` and the engine recording folders of one session) read as
/// one continuous run.
///
/// - The decoder's input (`decoder-input.csv`) of every folder, joined in
///   time order: the decoder's EEG stream runs on across folders.
/// - Every folder's `trials.jsonl` and `presses.csv`; a session's steps.
/// - The engine-to-Unix clock offset (from the first `events.jsonl` line
///   or trial) and a few settings of the first folder.
///
/// A folder that is neither, or holds no `decoder-input.csv` (an external
/// decoder ran, so the engine never saw the EEG), is an ``LabFormatError``.
public struct EngineRecording: Sendable {
    /// A few settings of the first folder's `settings.json` worth keeping in a sidecar.
    public struct Settings: Sendable, Equatable {
        /// `preferredNFramesPerSecond`: the display's frame rate.
        public var framesPerSecond: Double?
        /// `framesPerBit`: frames each code bit is shown.
        public var framesPerBit: Int?
        /// `randomlyTranslateNoiseTagsInTraining`: training codes shifted at random.
        public var shiftedTrainingCodes: Bool?
    }

    /// The folder given.
    public var url: URL
    /// True for a session folder.
    public var isSession: Bool
    /// The engine recording folders read, in time order.
    public var folders: [URL]
    /// The session's participant (`session.json`), nil for a lone recording.
    public var participant: String?
    /// True when a simulated participant took part (`session.json`).
    public var simulated: Bool?
    /// The decoder's input records of all folders, in the order consumed.
    public var records: [DecoderInputRecord]
    /// The trials of all folders, by start.
    public var trials: [RecordedTrial]
    /// The presses of all folders, by time.
    public var presses: [RecordedPress]
    /// The folder (index into ``folders``) each of ``trials`` and each of
    /// ``presses`` comes from: a session resumed in a new engine numbers its
    /// trials from 1 again, so a trial is its folder and its number.
    public var trialFolders: [Int] = [], pressFolders: [Int] = []
    /// Each folder's decoder input by the engine time (ms) of its first
    /// record, in time order: where a flicker that no trial line names
    /// (a trial cut by a kill) was recorded.
    var inputStarts: [(folder: Int, milliseconds: Double)] = []
    /// A session's finished steps (empty for a lone recording).
    public var steps: [StepResult]
    /// Unix seconds minus engine seconds, when a line gave both.
    public var clockOffset: Double?
    /// Settings of the first folder.
    public var settings: Settings
    /// What was noticed and survived, one line each.
    public var warnings: [String]

    /// The folder's name, for messages.
    public var name: String { url.lastPathComponent }

    /// Reads the recording or session folder at `url`.
    public static func read(_ url: URL) throws(LabFormatError) -> EngineRecording {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        let name = url.lastPathComponent
        guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else { throw LabFormatError(url.path, "no such file or folder") }
        guard isFolder.boolValue else { throw LabFormatError(name, "not a folder (give an engine recording folder or a session folder)") }
        func has(_ file: String, in folder: URL = url) -> Bool { manager.fileExists(atPath: folder.appendingPathComponent(file).path) }

        var recording = EngineRecording(url: url, isSession: has("session.json"), folders: [], records: [], trials: [], presses: [],
                                        steps: [], settings: Settings(), warnings: [])
        if recording.isSession {
            recording.folders = RecordingStore(root: url).recordings().map(\.url)
            guard !recording.folders.isEmpty else { throw LabFormatError(name, "a session folder (session.json) holding no engine recording folder") }
            try recording.readSession()
        } else {
            guard ["events.jsonl", "settings.json", DecoderInputFile.name].contains(where: { has($0) }) else {
                throw LabFormatError(name, "not a recording (no events.jsonl, settings.json or decoder-input.csv) nor a session folder (no session.json)")
            }
            recording.folders = [url]
        }
        var inputs: [(folder: URL, records: [DecoderInputRecord])] = []
        for folder in recording.folders where has(DecoderInputFile.name, in: folder) {
            do {
                inputs.append((folder, try DecoderInputFile.read(from: folder.appendingPathComponent(DecoderInputFile.name))))
            } catch {
                switch error {
                case .unreadable(let path, let reason): throw LabFormatError(path, "cannot read: \(reason)")
                case .badRow(let path, let line, let reason): throw LabFormatError("\(path):\(line)", reason)
                }
            }
        }
        guard inputs.contains(where: { !$0.records.isEmpty }) else {
            if !inputs.isEmpty {
                throw LabFormatError(name, "decoder-input.csv holds no record: the embedded decoder heard nothing before the recording ended (or the file was emptied)")
            }
            throw LabFormatError(name, "no decoder-input.csv\(recording.isSession ? " in its recordings" : ""): the EEG was not recorded (an external decoder ran; only the embedded decoder of noisetag demo records the EEG it consumed)")
        }
        inputs.sort { ($0.records.first?.time ?? .infinity) < ($1.records.first?.time ?? .infinity) }
        recording.records = inputs.flatMap(\.records)
        recording.inputStarts = inputs.compactMap { input in
            guard let first = input.records.first, let index = recording.folders.firstIndex(of: input.folder) else { return nil }
            return (index, first.time * 1000)
        }
        if zip(recording.records, recording.records.dropFirst()).contains(where: { $1.time < $0.time }) {
            recording.warnings.append("\(name): the folders' decoder inputs overlap in time; taken in time order")
            recording.records = recording.records.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        var trials: [(trial: RecordedTrial, folder: Int)] = [], presses: [(press: RecordedPress, folder: Int)] = []
        for (index, folder) in recording.folders.enumerated() {
            recording.warnings += RecordingSummary.inconsistencies(of: folder, required: [.events, .settings])
                .map { "\(folder.lastPathComponent): \($0)" }
            trials += recording.readTrials(folder.appendingPathComponent("trials.jsonl")).map { ($0, index) }
            presses += RecordedPress.read(folder.appendingPathComponent("presses.csv")).map { ($0, index) }
            if recording.clockOffset == nil { recording.clockOffset = Self.clockOffset(folder.appendingPathComponent("events.jsonl")) }
        }
        trials.sort { $0.trial.startTime < $1.trial.startTime }
        presses.sort { $0.press.time < $1.press.time }
        (recording.trials, recording.trialFolders) = (trials.map(\.trial), trials.map(\.folder))
        (recording.presses, recording.pressFolders) = (presses.map(\.press), presses.map(\.folder))
        if recording.clockOffset == nil, let trial = recording.trials.first { recording.clockOffset = trial.startWallTime - trial.startTime }
        recording.settings = Self.settings(recording.folders[0].appendingPathComponent("settings.json"))
        return recording
    }

    /// Reads `session.json` and `steps.jsonl`.
    private mutating func readSession() throws(LabFormatError) {
        let manifest = url.appendingPathComponent("session.json")
        guard let data = try? Data(contentsOf: manifest),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw LabFormatError("\(name)/session.json", "is not a JSON object")
        }
        participant = object["participant"] as? String
        simulated = object["simulated"] as? Bool
        let reader = RecordingFileReader(url.appendingPathComponent("steps.jsonl"))
        var bad: [Int] = []
        var line = 0
        reader.forEachLine { text in
            line += 1
            guard !text.isEmpty else { return }
            if let step = try? JSONDecoder().decode(StepResult.self, from: Data(text.utf8)) { steps.append(step) } else { bad.append(line) }
        }
        if !bad.isEmpty { warnings.append("\(name)/steps.jsonl: \(bad.count) line(s) not a step, left out (line \(bad.prefix(5).map(String.init).joined(separator: ", ")))") }
    }

    /// The trials of one `trials.jsonl` (unreadable lines, left out, are
    /// among the folder's inconsistencies).
    private func readTrials(_ file: URL) -> [RecordedTrial] {
        var trials: [RecordedTrial] = []
        RecordingFileReader(file).forEachLine { text in
            guard !text.isEmpty, let trial = try? JSONDecoder().decode(RecordedTrial.self, from: Data(text.utf8)) else { return }
            trials.append(trial)
        }
        return trials
    }

    /// Unix minus engine seconds from the first line of `events.jsonl` with both.
    private static func clockOffset(_ file: URL) -> Double? {
        var offset: Double?
        RecordingFileReader(file).forEachLine { text in
            guard offset == nil, let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
                  let wall = (object["wall_time"] as? NSNumber)?.doubleValue, let time = (object["time"] as? NSNumber)?.doubleValue else { return }
            offset = wall - time
        }
        return offset
    }

    private static func settings(_ file: URL) -> Settings {
        guard let data = try? Data(contentsOf: file), let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return Settings()
        }
        return Settings(framesPerSecond: (object["preferredNFramesPerSecond"] as? NSNumber)?.doubleValue,
                        framesPerBit: (object["framesPerBit"] as? NSNumber)?.intValue,
                        shiftedTrainingCodes: object["randomlyTranslateNoiseTagsInTraining"] as? Bool)
    }
}
