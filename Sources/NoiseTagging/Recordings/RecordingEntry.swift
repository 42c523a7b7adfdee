import Foundation

/// One recording folder found in a ``RecordingStore``.
public struct RecordingEntry: Sendable, Equatable {
    /// Whether a recording is finished.
    public enum State: String, Sendable, Codable {
        /// Both parts of the name: ended normally.
        case closed
        /// Only the left part, and a running process is writing it.
        case open
        /// Only the left part, and no process is writing it: it ended by a crash or kill.
        case crashed
    }

    /// The parsed folder name.
    public let name: RecordingName
    /// The folder.
    public let url: URL
    /// Closed, open or crashed.
    public let state: State

    /// The folder's name as it is on disk: ``RecordingName/folderName``
    /// writes times in UTC, a folder made elsewhere may give another offset.
    public var folderName: String { url.lastPathComponent }

    /// The total size of the folder's files in bytes.
    public var size: Int64 { RecordingStore.size(of: url) }
}
