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

    /// Creates an entry.
    public init(name: RecordingName, url: URL, state: State) {
        self.name = name
        self.url = url
        self.state = state
    }

    /// The total size of the folder's files in bytes.
    public var size: Int64 { RecordingStore.size(of: url) }
}
