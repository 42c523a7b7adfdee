import Foundation

/// The lock a running session holds on its folder, so that a second
/// `session run --resume` of the same folder, or two at once, are refused
/// instead of both writing `steps.jsonl` and recordings into it. An
/// exclusive `flock` on the folder: the kernel drops it when the process
/// ends, however it ends, so a killed session can be resumed at once. The
/// same lock the engine holds on a recording it writes: whether a folder is
/// held is `RecordingStore.isLive(_:)` for either.
public final class SessionFolderLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock on `folder`'s directory, or fails naming the folder
    /// and why (another process holds it, or it cannot be opened).
    init(_ folder: URL) throws(SessionFolder.Failure) {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SessionFolder.Failure(description: "\(folder.path): cannot be opened to lock it (\(String(cString: strerror(errno))))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            throw SessionFolder.Failure(description: busy
                ? "\(folder.path): another noisetag session run is using this session folder; wait for it to end (or stop it) before resuming"
                : "\(folder.path): cannot be locked (\(String(cString: strerror(errno))))")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
