import ArgumentParser
import Foundation
import NoiseTagging

/// The `--recordings DIR` option every command that records or reads recordings takes.
struct RecordingsOption: ParsableArguments {
    @Option(name: .customLong("recordings"),
            help: ArgumentHelp("Recordings root folder (default: $NOISETAG_HOME/recordings, NOISETAG_HOME defaulting to ~/.noisetag).",
                               valueName: "DIR"))
    var root: String?

    /// The store to read: `--recordings`, which must be an existing folder
    /// (else a ``CommandFailure``), or the default root, which may not
    /// exist yet (no recordings).
    func existingStore() throws -> RecordingStore {
        let store = self.store
        guard root != nil else { return store }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: store.root.path, isDirectory: &isFolder) else {
            throw CommandFailure("recordings folder \(store.root.path): no such folder")
        }
        guard isFolder.boolValue else { throw CommandFailure("recordings folder \(store.root.path): not a folder") }
        return store
    }

    /// The recording `text` names: an exact folder name, the only one that
    /// begins with it, or a path to a recording folder; else a
    /// ``CommandFailure`` that says whether none or several matched.
    func recording(named text: String) throws -> RecordingEntry {
        if let problem = Self.sessionFolderProblem(text) { throw CommandFailure(problem) }
        let store = try existingStore()
        if let entry = store.recording(matching: text) { return entry }
        // A start of several names: which, so that more of the name can be given.
        func ambiguous(_ names: [String], _ kind: String) -> CommandFailure {
            let shown = names.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
            return CommandFailure("'\(text)' begins \(names.count) \(kind) in \(store.root.path) (\(shown)\(names.count > 3 ? ", …" : "")): give more of the name")
        }
        let several = store.recordings().filter { $0.folderName.hasPrefix(text) }
        if several.count > 1 { throw ambiguous(several.map(\.folderName), "recordings") }
        let sessions = sessionFolders(matching: text)
        if sessions.count > 1 { throw ambiguous(sessions.map(\.lastPathComponent), "session folders") }
        if let session = sessions.first, let problem = Self.sessionFolderProblem(session.path) { throw CommandFailure(problem) }
        var isFolder: ObjCBool = false
        let inStore = store.root.appendingPathComponent(text).path
        if let path = [(text as NSString).expandingTildeInPath, inStore].first(where: { FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) }) {
            throw CommandFailure(isFolder.boolValue
                ? "\(text): a folder whose name is not a recording's (START REASON, then – REASON END once closed: Protocols/recordings.md §2)"
                : "\(path): a file, not a recording folder")
        }
        throw CommandFailure("\(text): no such folder, and no recording in \(store.root.path) matches it (see noisetag recordings list)")
    }

    /// The session folder (one holding `session.json`) in the store whose
    /// name is `text` or, alone, begins with it; nil when there is none.
    func sessionFolder(named text: String) -> URL? {
        let matching = sessionFolders(matching: text)
        return matching.count == 1 ? matching[0] : nil
    }

    /// The session folders in the store named `text`, or else every one whose name begins with it, by name.
    func sessionFolders(matching text: String) -> [URL] {
        let root = store.root
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let sessions = names.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent("session.json").path) }
        let matching = sessions.contains(text) ? [text] : sessions.filter { $0.hasPrefix(text) }.sorted()
        return matching.map { root.appendingPathComponent($0, isDirectory: true) }
    }

    /// The answer for `path` when it is a session folder, which holds
    /// recordings but is none (its name has the same form); nil otherwise.
    static func sessionFolderProblem(_ path: String) -> String? {
        let expanded = (path as NSString).expandingTildeInPath
        guard FileManager.default.fileExists(atPath: (expanded as NSString).appendingPathComponent("session.json")) else { return nil }
        return "\(path): a session folder, not a recording: its recordings are listed by noisetag recordings list --recordings '\(path)' "
            + "(give one of them), and noisetag session report and recordings export take the session whole"
    }

    /// The store at `--recordings`, or the default root.
    var store: RecordingStore {
        root.map { RecordingStore(root: URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true)) }
            ?? .standard
    }
}
