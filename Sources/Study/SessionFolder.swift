import Foundation
import JSONSupport
import LabFormats

/// A session's folder: `session.json` (``SessionManifest``), `steps.jsonl`
/// (one ``StepResult`` per finished step) and the engine's recording
/// folders, which the session's ``RecordingStore`` nests inside it, with
/// the decoder's `decoder-calibrations/`.
public struct SessionFolder: Sendable {
    /// The folder.
    public let url: URL
    /// Its `session.json`.
    public let manifest: SessionManifest

    /// The manifest's file name.
    public static let manifestName = "session.json"
    /// The results file's name.
    public static let resultsName = "steps.jsonl"

    /// Why a session folder cannot be made, opened or written.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// One line naming the folder or file and the reason.
        public let description: String
    }

    /// Makes a new session folder in `root`, named after the start time and
    /// the participant, and writes its manifest.
    public static func create(in root: URL, manifest: SessionManifest, now: Date = Date()) throws(Failure) -> SessionFolder {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH.mm.ss '+0000'"
        var url = root.appendingPathComponent("\(formatter.string(from: now)) session \(manifest.participant)", isDirectory: true)
        var suffix = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = root.appendingPathComponent("\(formatter.string(from: now)) session \(manifest.participant) (\(suffix))", isDirectory: true)
            suffix += 1
        }
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw Failure(description: "\(url.path): cannot be created (\(FileProblem.whyNotWritten(url, error, folder: true)))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(manifest)
            try data.write(to: url.appendingPathComponent(manifestName), options: .atomic)
        } catch {
            throw Failure(description: "\(url.appendingPathComponent(manifestName).path): cannot be written (\(FileProblem.whyNotWritten(url.appendingPathComponent(manifestName), error)))")
        }
        return SessionFolder(url: url, manifest: manifest)
    }

    /// Opens an existing session folder (for `--resume` and reports).
    public static func open(_ url: URL) throws(Failure) -> SessionFolder {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw Failure(description: "\(url.path): no such folder")
        }
        guard isFolder.boolValue else { throw Failure(description: "\(url.path): is a file, not a session folder") }
        let manifestURL = url.appendingPathComponent(manifestName)
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
            throw Failure(description: "\(url.path): not a session folder (no \(manifestName); a session folder is made by noisetag session run)")
        }
        let manifest: SessionManifest
        do { manifest = try JSONDecoder().decode(SessionManifest.self, from: data) } catch {
            throw Failure(description: "\(manifestURL.path): not a session manifest (\(error))")
        }
        guard manifest.format == SessionManifest.currentFormat else {
            throw Failure(description: "\(manifestURL.path): format \"\(manifest.format)\" is not \(SessionManifest.currentFormat)")
        }
        return SessionFolder(url: url.standardizedFileURL, manifest: manifest)
    }

    /// Locks the folder for a run; keep the lock until the run ends. Fails
    /// when another process runs this session (``SessionFolderLock``).
    public func lock() throws(Failure) -> SessionFolderLock { try SessionFolderLock(url) }

    /// The protocol kept in the manifest.
    public func sessionProtocol() throws(SessionProtocolError) -> SessionProtocol {
        try SessionProtocol.parse(manifest.protocol, source: "\(url.lastPathComponent)/\(Self.manifestName)")
    }

    /// The finished steps' results, in order. A last line cut off by a
    /// crash (no final line break) is left out; any other bad line is an error.
    public func results() throws(Failure) -> [StepResult] {
        let fileURL = url.appendingPathComponent(Self.resultsName)
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() } else if !lines.isEmpty { lines.removeLast() }
        var results: [StepResult] = []
        let stepCount = manifest.protocol.object?["steps"]?.array?.count
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let result: StepResult
            do { result = try JSONDecoder().decode(StepResult.self, from: Data(line.utf8)) } catch {
                throw Failure(description: "\(fileURL.path):\(index + 1): not a step result (\(JSONProblem.describe(error, decoding: StepResult.self, from: Data(line.utf8))))")
            }
            // A session writes its results in protocol order (a failed signal check may repeat its step), each once.
            if let stepCount, !(1...max(1, stepCount)).contains(result.step) {
                throw Failure(description: "\(fileURL.path):\(index + 1): step \(result.step), but the protocol has \(stepCount) steps")
            }
            if let last = results.last {
                if result == last {
                    throw Failure(description: "\(fileURL.path):\(index + 1): the same result as the line before it: a line written twice")
                }
                if result.step < last.step {
                    throw Failure(description: "\(fileURL.path):\(index + 1): step \(result.step) after step \(last.step): results are written in order")
                }
            }
            results.append(result)
        }
        return results
    }

    /// Appends `result` as one line and forces it to disk before returning.
    public func append(_ result: StepResult) throws(Failure) {
        let fileURL = url.appendingPathComponent(Self.resultsName)
        let line = Data((result.jsonLine + "\n").utf8)
        do {
            if !FileManager.default.fileExists(atPath: fileURL.path) {
                guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
                    throw CocoaError(.fileWriteNoPermission)
                }
            }
            let handle = try FileHandle(forWritingTo: fileURL)
            defer { try? handle.close() }
            // A line cut off by an earlier crash never became a result: it goes, so this one stays whole.
            let data = try Data(contentsOf: fileURL)
            if let last = data.last, last != 0x0A {
                let keep = data.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                try handle.truncate(atOffset: UInt64(keep))
            }
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
            try handle.synchronize()
        } catch {
            throw Failure(description: "\(fileURL.path): step \(result.step) (\(result.name)) could not be written (\(error.localizedDescription))")
        }
    }

    /// Where a resumed session goes on.
    public struct ResumePoint: Equatable, Sendable {
        /// The first step to run (0-based); the protocol's step count when all are done.
        public var step: Int
        /// The dataset of the latest calibration done before it, to fit the decoder on again, if saved.
        public var calibration: URL?

        /// A resume point from its parts.
        public init(step: Int, calibration: URL?) {
            self.step = step
            self.calibration = calibration
        }
    }

    /// Where `--resume` goes on: after the last result, or that step again
    /// when it was a signal check that stopped the session; with the latest
    /// calibration done before it (unless a zero-training step came after it).
    public func resumePoint(in plan: SessionProtocol) throws(Failure) -> ResumePoint {
        let results = try results()
        var next = 0
        if let last = results.last {
            next = last.step
            if last.outcome == "failed", last.step - 1 < plan.steps.count,
               case .signalCheck(_, _, let onFailure, _) = plan.steps[last.step - 1].kind, onFailure != .continue {
                next = last.step - 1
            }
        }
        var calibration: URL?
        // A zero-training step after it began from nothing, so its model was not the calibration's.
        if let done = results.last(where: { $0.kind == "calibration" && $0.outcome == "done" && $0.step <= next }),
           !results.contains(where: { $0.kind == "zeroTrain" && $0.step > done.step }),
           let path = done.measures["calibrationDataset"]?.string {
            calibration = path.hasPrefix("/") ? URL(fileURLWithPath: path) : url.appendingPathComponent(path)
        }
        return ResumePoint(step: next, calibration: calibration)
    }

    /// The engine recording folders inside, by name, oldest first.
    public func recordingNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return name != "decoder-calibrations"
                && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
        }.sorted()
    }

    /// The participant identifiers a session accepts: letters, digits, `-` and `_`, 1 to 64 of them.
    public static func problem(withParticipant id: String) -> String? {
        if id.isEmpty { return "is empty" }
        if id.count > 64 { return "is longer than 64 characters" }
        if let bad = id.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")) }) {
            return "'\(bad)' is not allowed (letters, digits, - and _ only)"
        }
        return nil
    }
}
