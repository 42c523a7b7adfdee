import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recordings root folder: one sub-folder per recording, named by
/// ``RecordingName``. Listing, the live check and size-limit pruning.
public struct RecordingStore: Sendable {
    /// The root folder.
    public let root: URL

    /// A store at `root` (created when the first recording starts).
    public init(root: URL) { self.root = root.standardizedFileURL }

    /// The store at ``defaultRoot(environment:)``.
    public static var standard: RecordingStore { RecordingStore(root: defaultRoot()) }

    /// `$NOISETAG_HOME/recordings` (``NoiseTagHome``), with `NOISETAG_HOME` defaulting to `~/.noisetag`.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        NoiseTagHome.url(environment: environment).appendingPathComponent("recordings", isDirectory: true)
    }

    /// Every folder whose name follows the grammar, oldest first (by start;
    /// recordings that started in the same second follow their chain).
    /// Other files and folders are ignored, and so are folders of
    /// recordings (``foldersHoldingRecordings()``).
    public func recordings() -> [RecordingEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var entries: [RecordingEntry] = []
        for folder in names {
            guard let name = RecordingName(folderName: folder) else { continue }
            let url = root.appendingPathComponent(folder, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
                  !Self.holdsRecordings(url) else { continue }
            let state: RecordingEntry.State = !name.isOpen ? .closed : (Self.isLive(url) ? .open : .crashed)
            entries.append(RecordingEntry(name: name, url: url, state: state))
        }
        return Self.ordered(entries)
    }

    /// The folders in the root that hold recordings rather than being one
    /// (a study session's folder: recordings inside, none of a recording's
    /// own files), by name. The recordings themselves are ``recordings()``.
    public func foldersHoldingRecordings() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().map { root.appendingPathComponent($0, isDirectory: true) }.filter(Self.holdsRecordings)
    }

    /// True when `url` holds recording folders and none of the files a recording writes.
    static func holdsRecordings(_ url: URL) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return false }
        let files = Set(RecordingFile.allCases.map(\.rawValue))
        return !entries.contains(where: files.contains) && entries.contains { RecordingName(folderName: $0) != nil }
    }

    /// Every recording no process is writing any more (closed and crashed), oldest first.
    public func finishedRecordings() -> [RecordingEntry] {
        recordings().filter { $0.state != .open }
    }

    /// The recording called `text`: an exact folder name, else the only one
    /// whose name starts with it, else a path to a recording folder.
    public func recording(matching text: String) -> RecordingEntry? {
        let all = recordings()
        if let exact = all.first(where: { $0.folderName == text || $0.name.folderName == text }) { return exact }
        let prefixed = all.filter { $0.folderName.hasPrefix(text) }
        if prefixed.count == 1 { return prefixed[0] }
        let url = URL(fileURLWithPath: text).standardizedFileURL
        guard let name = RecordingName(folderName: url.lastPathComponent),
              FileManager.default.fileExists(atPath: url.path) else { return nil }
        let state: RecordingEntry.State = !name.isOpen ? .closed : (Self.isLive(url) ? .open : .crashed)
        return RecordingEntry(name: name, url: url, state: state)
    }

    /// Sorts by start; within one second, a recording comes before the one its right part names.
    static func ordered(_ entries: [RecordingEntry]) -> [RecordingEntry] {
        let sorted = entries.sorted {
            ($0.name.start, $0.folderName) < ($1.name.start, $1.folderName)
        }
        var result: [RecordingEntry] = []
        var index = 0
        while index < sorted.count {
            var group = [sorted[index]]
            index += 1
            while index < sorted.count, sorted[index].name.start == group[0].name.start {
                group.append(sorted[index])
                index += 1
            }
            while !group.isEmpty {
                let first = group.firstIndex { candidate in
                    !group.contains { $0 != candidate && $0.name.isFollowed(by: candidate.name) }
                } ?? 0
                result.append(group.remove(at: first))
            }
        }
        return result
    }

    /// True when a running process holds the folder's lock (it is being written).
    public static func isLive(_ folder: URL) -> Bool {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Total size in bytes of the regular files under `url`.
    public static func size(of url: URL) -> Int64 {
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else {
            return 0
        }
        var total: Int64 = 0
        for case let file as URL in walker {
            let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += Int64(values?.fileSize ?? 0) }
        }
        return total
    }

    /// Deletes the oldest recordings not in `protected` and not live until all
    /// recordings together take at most `limit` bytes. Returns what it deleted.
    @discardableResult
    public func prune(toAtMost limit: Int64, protecting protected: Set<String>) -> [(folder: String, bytes: Int64)] {
        let entries = recordings()
        var sizes: [String: Int64] = [:]
        for entry in entries { sizes[entry.name.folderName] = entry.size }
        var total = sizes.values.reduce(0, +)
        var deleted: [(folder: String, bytes: Int64)] = []
        for entry in entries where total > limit {
            let folder = entry.name.folderName
            guard !protected.contains(folder), entry.state != .open else { continue }
            guard (try? FileManager.default.removeItem(at: entry.url)) != nil else { continue }
            let bytes = sizes[folder] ?? 0
            total -= bytes
            deleted.append((folder, bytes))
        }
        return deleted
    }
}
