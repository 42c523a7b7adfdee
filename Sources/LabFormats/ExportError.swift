/// Why a recording could not be exported: one line naming the thing (a
/// folder, a file, an option) and the reason, never a crash.
///
/// ```swift
/// do { _ = try EngineRecording.read(url) } catch { print(error) }
/// // "2026-11-25 16.28.15 +0000 training: no decoder-input.csv: the EEG was not recorded (…)"
/// ```
public struct ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The thing the error is about.
    public let subject: String
    /// Why it failed.
    public let reason: String

    /// An error about `subject`.
    public init(_ subject: String, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// "subject: reason".
    public var description: String { "\(subject): \(reason)" }
}
