import Foundation

/// The lock a running session holds on its folder, so that a second
/// `session run --resume` of the same folder, or two at once, are refused
/// instead of both writing `steps.jsonl` and recordings into it. An
/// exclusive `flock` on the folder: the kernel drops it when the process
/// ends, however it ends, so a killed session can be resumed at once.
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

    /// True when a running session holds the lock on `folder`.
    public static func isHeld(on folder: URL) -> Bool {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }
}
