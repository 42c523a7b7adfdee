import SystemPackage

/// One recording folder as the writer sees it: lines waiting to be written
/// (changed only inside the writer's `state` Mutex) and the open files
/// (changed only with its `io` lock held).
// @unchecked: it is reached from the writer's Mutex and its io lock; each field says which one guards it.
final class RecordingSegment: @unchecked Sendable {
    /// Lines waiting for one file, in order, and the bytes they are budgeted.
    struct Pending {
        var lines: [RecordingLineSource] = []
        var budgetedBytes = 0
        var isFrames = false

        /// An empty list with room for as many lines as `taken` held, so that
        /// the engine thread's appends do not grow (and copy) it again.
        static func reserving(like taken: Pending) -> Pending {
            var next = Pending(isFrames: taken.isFrames)
            next.lines.reserveCapacity(taken.lines.count)
            return next
        }

        /// The lines' text, in order.
        func formatted() -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(budgetedBytes)
            for line in lines { line.format(into: &out) }
            return out
        }
    }

    /// The folder's name while open (its left part).
    let folder: String

    // Changed only inside the writer's `state` Mutex.
    var pending: [String: Pending] = [:]
    /// False once the folder failed: lines are thrown away.
    var accepting = true
    /// Set when the recording ended: the folder's final name (nil: keep the name).
    var closeName: String?
    var ended = false

    // Changed only with the writer's `io` lock held.
    var created = false
    var failed = false
    var finalized = false
    /// The folder, open and `flock`ed while the recording is written.
    var directory: FileDescriptor?
    var files: [String: FileDescriptor] = [:]
    var dirty: Set<String> = []

    init(folder: String) { self.folder = folder }
}
