import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer thread's file operations: folders, appends, `fsync`, closing
/// and renaming. Called with `io` held, except ``sync(_:)``.
extension RecordingWriter {
    func create(_ segment: RecordingSegment) {
        let path = store.root.appendingPathComponent(segment.folder).path
        if let reason = Self.makeDirectories(store.root.path) {
            fail(segment, path: store.root.path, reason: "cannot create the recordings folder: \(reason)")
            return
        }
        guard mkdir(path, 0o755) == 0 else {
            fail(segment, path: path, reason: "cannot create the recording folder: \(Self.lastError())")
            return
        }
        segment.directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if segment.directory >= 0 { _ = flock(segment.directory, LOCK_EX | LOCK_NB) }
        syncDirectory(store.root.path)
        segment.created = true
    }

    func writeLines(_ bytes: [UInt8], to file: String, of segment: RecordingSegment) -> Bool {
        let path = store.root.appendingPathComponent(segment.folder).appendingPathComponent(file).path
        let fd: Int32
        if let existing = segment.files[file] {
            fd = existing
        } else {
            fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                fail(segment, path: path, reason: "cannot open: \(Self.lastError())")
                return false
            }
            segment.files[file] = fd
        }
        var offset = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        guard ok else {
            fail(segment, path: path, reason: "cannot write: \(Self.lastError())")
            return false
        }
        segment.dirty.insert(file)
        return true
    }

    /// The files written since their last `fsync`. Call with `io` held.
    func takeDirtyFiles() -> [(segment: RecordingSegment, file: String, fd: Int32)] {
        state.lock()
        let open = segments.filter { $0.created && !$0.failed && !$0.dirty.isEmpty }
        state.unlock()
        var result: [(segment: RecordingSegment, file: String, fd: Int32)] = []
        for segment in open {
            for file in segment.dirty.sorted() {
                if let fd = segment.files[file] { result.append((segment, file, fd)) }
            }
            segment.dirty.removeAll()
        }
        return result
    }

    /// `fsync`s without holding `io`, so the engine thread can still hand
    /// lines over meanwhile. Only the writer thread closes files, so the
    /// descriptors stay valid.
    func sync(_ files: [(segment: RecordingSegment, file: String, fd: Int32)]) {
        for (segment, file, fd) in files where fsync(fd) != 0 {
            let reason = "cannot fsync: \(Self.lastError())"
            io.lock()
            if !segment.failed {
                fail(segment, path: store.root.appendingPathComponent(segment.folder).appendingPathComponent(file).path,
                     reason: reason)
            }
            io.unlock()
        }
    }

    func finalize(_ segment: RecordingSegment) {
        if !segment.failed {
            for file in segment.dirty.sorted() { if let fd = segment.files[file] { _ = fsync(fd) } }
        }
        closeFiles(of: segment)
        if segment.created, let closeName = segment.closeName, closeName != segment.folder {
            let from = store.root.appendingPathComponent(segment.folder).path
            let to = store.root.appendingPathComponent(closeName).path
            if rename(from, to) != 0 {
                report([.problem(folder: segment.folder, path: from, reason: "cannot rename to '\(closeName)': \(Self.lastError())", loggingOff: false)])
            }
            syncDirectory(store.root.path)
        }
        if segment.directory >= 0 { close(segment.directory); segment.directory = -1 }
        segment.finalized = true
    }

    func closeFiles(of segment: RecordingSegment) {
        for fd in segment.files.values { close(fd) }
        segment.files.removeAll()
        segment.dirty.removeAll()
    }

    func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// `mkdir -p`; nil on success, else the reason.
    static func makeDirectories(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? nil : "a file is in the way (not a directory)"
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, let reason = makeDirectories(parent) { return reason }
        if mkdir(path, 0o755) != 0, errno != EEXIST { return "\(path): \(lastError())" }
        return nil
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
