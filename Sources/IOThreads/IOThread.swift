import Dispatch
import Foundation

/// The package's one way to run an I/O loop on a thread of its own: the
/// engine's decoder links, the decoder server, the ZAP handler and the
/// recording writer each start one. The thread runs `body` once and ends;
/// ``join()`` waits for that.
///
/// The body holds the parts it works on (socket, queues, wake-up), never the
/// object that owns the thread: an owner released without being stopped is
/// then freed, and stops and joins its thread from `deinit`, instead of
/// being kept alive by the thread it started.
///
/// ```swift
/// let loop = ReadLoop(socket: socket, wake: wake)     // what the thread works on
/// let thread = IOThread(name: "nt-decoder-io") { loop.run() }
/// …
/// loop.requestStop(); wake.signal(); thread.join()
/// ```
public final class IOThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a thread called `name` (as `top -H`, `ps -L` and gdb show it:
    /// Linux keeps its first 15 bytes) that runs `body`.
    public init(name: String, body: @escaping @Sendable () -> Void) {
        let finished = finished
        let thread = Thread {
            Self.nameCurrentThread(name)
            body()
            finished.signal()
        }
        thread.start()
    }

    /// Names the calling thread for the system's tools, cut to the 15 bytes
    /// Linux keeps (a longer name is refused whole, and the thread keeps the
    /// process's name).
    public static func nameCurrentThread(_ name: String) {
        Thread.current.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    }

    /// Waits until the body has returned; at once when it has. Any thread may
    /// call it, any number of times, but not the I/O thread itself.
    public func join() {
        finished.wait()
        finished.signal()
    }
}
