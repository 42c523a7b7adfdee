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
/// let thread = IOThread(name: "noisetag-decoder-io") { loop.run() }
/// …
/// loop.requestStop(); wake.signal(); thread.join()
/// ```
public final class IOThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a thread called `name` (as `top` and `gdb` show it) that runs `body`.
    public init(name: String, body: @escaping @Sendable () -> Void) {
        let finished = finished
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits until the body has returned; at once when it has. Any thread may
    /// call it, any number of times, but not the I/O thread itself.
    public func join() {
        finished.wait()
        finished.signal()
    }
}
