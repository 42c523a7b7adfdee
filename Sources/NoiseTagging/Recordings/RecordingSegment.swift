import SystemPackage

/// One recording folder as the writer sees it: lines waiting to be written
/// (guarded by the writer's state lock) and the open files (guarded by its
/// I/O lock).
final class RecordingSegment {
    /// Bytes waiting for one file, and how many lines they hold.
    struct Pending {
        var bytes: [UInt8] = []
        var lines = 0
        var isFrames = false
    }

    /// The folder's name while open (its left part).
    let folder: String

    // Guarded by the writer's state lock.
    var pending: [String: Pending] = [:]
    /// False once the folder failed: lines are thrown away.
    var accepting = true
    /// Set when the recording ended: the folder's final name (nil: keep the name).
    var closeName: String?
    var ended = false

    // Guarded by the writer's I/O lock.
    var created = false
    var failed = false
    var finalized = false
    /// The folder, open and `flock`ed while the recording is written.
    var directory: FileDescriptor?
    var files: [String: FileDescriptor] = [:]
    var dirty: Set<String> = []

    init(folder: String) { self.folder = folder }
}
