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
    /// is absent, else "PATH: cannot read: …" with `error`'s description.
    static func unreadable(_ url: URL, _ error: any Error) -> LabFormatError {
        LabFormatError(url.path, FileManager.default.fileExists(atPath: url.path) ? "cannot read: \(error.localizedDescription)" : "no such file")
    }

    /// "subject: reason", on one line even when either quotes bytes of a
    /// damaged file (control characters escaped).
    public var description: String { "\(subject): \(reason)".escapingControlCharacters }
}
