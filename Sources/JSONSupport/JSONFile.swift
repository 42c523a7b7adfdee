import Foundation

/// Reading a file a user named (a settings file, a session protocol, a dataset's files):
/// its bytes, or why they cannot be had in words fit for an error line.
public enum JSONFile {
    /// Why a file could not be read: "no such file", "a folder, not a
    /// file", "permission denied", or the system's reason.
    public struct Unreadable: Error, Sendable, Equatable {
        /// The reason in words.
        public let reason: String
    }

    /// The bytes of the file at `url`.
    public static func contents(of url: URL) throws(Unreadable) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { throw Unreadable(reason: "no such file") }
        guard !isFolder.boolValue else { throw Unreadable(reason: "a folder, not a file") }
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw Unreadable(reason: "permission denied") }
        do { return try Data(contentsOf: url) } catch {
            // A pipe (`--settings <(…)`) or a device: read it as a stream.
            if let handle = try? FileHandle(forReadingFrom: url), let data = try? handle.readToEnd() { return data }
            throw Unreadable(reason: FileProblem.systemReason(error))
        }
    }
}
