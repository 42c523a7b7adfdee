import Foundation
import UtopiaProtocol

/// Why a file could not be imported, or a recording exported: one line
/// naming the file, folder or option (or the part of it) and the reason,
/// never a crash.
public struct LabFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or part the error is about.
    public let subject: String
    /// Why it failed.
    public let reason: String

    /// An error about `subject`.
    public init(_ subject: String, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// Why the file at `url` could not be read: "PATH: no such file" when it
    /// is absent, "a folder, not a file", "permission denied", else
    /// "PATH: cannot read: …" with `error`'s description.
    static func unreadable(_ url: URL, _ error: any Error) -> LabFormatError {
        var isFolder: ObjCBool = false
        let fm = FileManager.default
        guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { return LabFormatError(url.path, "no such file") }
        if isFolder.boolValue { return LabFormatError(url.path, "a folder, not a file") }
        if let kind = SpecialFile.kind(at: url.path) { return LabFormatError(url.path, "\(kind), not a regular file: save it to a file first and give that") }
        if !fm.isReadableFile(atPath: url.path) { return LabFormatError(url.path, "permission denied") }
        return LabFormatError(url.path, "cannot read: \(error.localizedDescription)")
    }

    /// "subject: reason", on one line even when either quotes bytes of a
    /// damaged file (control characters escaped).
    public var description: String { "\(subject): \(reason)".escapingControlCharacters }
}
