import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer thread's file operations: folders, appends, `fsync`, closing
/// and renaming, through swift-system's `FileDescriptor` and `Errno` (`fsync`,
/// `flock`, `mkdir` and `rename`, which it lacks, are called directly).
/// Called with `io` held, except ``sync(_:)``.
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
        segment.directory = try? FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec])
        if let directory = segment.directory { _ = flock(directory.rawValue, LOCK_EX | LOCK_NB) }
        syncDirectory(store.root.path)
        segment.created = true
    }

    func writeLines(_ bytes: [UInt8], to file: String, of segment: RecordingSegment) -> Bool {
        let path = store.root.appendingPathComponent(segment.folder).appendingPathComponent(file).path
        do {
            let descriptor: FileDescriptor
            if let existing = segment.files[file] {
                descriptor = existing
            } else {
                do {
                    descriptor = try FileDescriptor.open(
                        path, .writeOnly, options: [.create, .append, .closeOnExec],
                        permissions: [.ownerReadWrite, .groupRead, .otherRead])
                } catch {
                    fail(segment, path: path, reason: "cannot open: \(error)")
                    return false
                }
                segment.files[file] = descriptor
            }
            try descriptor.writeAll(bytes)   // loops over short writes, retries EINTR
        } catch {
            fail(segment, path: path, reason: "cannot write: \(error)")
            return false
        }
        segment.dirty.insert(file)
        return true
    }

    /// The files written since their last `fsync`. Call with `io` held.
    func takeDirtyFiles() -> [(segment: RecordingSegment, file: String, descriptor: FileDescriptor)] {
        let open = state.withLock { $0.segments.filter { $0.created && !$0.failed && !$0.dirty.isEmpty } }
        var result: [(segment: RecordingSegment, file: String, descriptor: FileDescriptor)] = []
        for segment in open {
            for file in segment.dirty.sorted() {
                if let descriptor = segment.files[file] { result.append((segment, file, descriptor)) }
            }
            segment.dirty.removeAll()
        }
        return result
    }

    /// `fsync`s without holding `io`, so the engine thread can still hand
    /// lines over meanwhile. Only the writer thread closes files, so the
    /// descriptors stay valid.
    func sync(_ files: [(segment: RecordingSegment, file: String, descriptor: FileDescriptor)]) {
        for (segment, file, descriptor) in files {
            guard let error = Self.fsync(descriptor) else { continue }
            io.withLock { _ in
                if !segment.failed {
                    fail(segment, path: store.root.appendingPathComponent(segment.folder).appendingPathComponent(file).path,
                         reason: "cannot fsync: \(error)")
                }
            }
        }
    }

    func finalize(_ segment: RecordingSegment) {
        if !segment.failed {
            for file in segment.dirty.sorted() { if let descriptor = segment.files[file] { _ = Self.fsync(descriptor) } }
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
        try? segment.directory?.close()
        segment.directory = nil
        segment.finalized = true
    }

    func closeFiles(of segment: RecordingSegment) {
        for descriptor in segment.files.values { try? descriptor.close() }
        segment.files.removeAll()
        segment.dirty.removeAll()
    }

    func syncDirectory(_ path: String) {
        guard let directory = try? FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec]) else { return }
        _ = Self.fsync(directory)
        try? directory.close()
    }

    /// `fsync(2)` (swift-system has none); nil on success, else the error.
    static func fsync(_ descriptor: FileDescriptor) -> Errno? {
        #if canImport(Glibc)
        Glibc.fsync(descriptor.rawValue) == 0 ? nil : Errno(rawValue: errno)
        #else
        Darwin.fsync(descriptor.rawValue) == 0 ? nil : Errno(rawValue: errno)
        #endif
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

    /// The current `errno` as text.
    static func lastError() -> String { Errno(rawValue: errno).description }
}
