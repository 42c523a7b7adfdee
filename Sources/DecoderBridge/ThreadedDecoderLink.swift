import IOThreads
import NoiseTagging
import UtopiaProtocol
import ZeroMQTransport

/// What the package's decoder links have in common, whatever the socket:
/// one I/O thread owns the socket, and the engine's side of the link only
/// queues frames for it and drains what it received, through a
/// ``LinkExchange`` and an eventfd that wakes the thread when it waits.
/// ``ZeroMQDecoderLink`` and ``UtopiaTCPDecoderLink`` are the two kinds;
/// each starts its thread with the loop that drives its socket.
///
/// The thread holds the exchange and the wake-up, never the link, so a link
/// released without ``close()`` is freed, and closes from `deinit`.
// @unchecked: the socket belongs to the I/O thread alone; what the engine shares with it is in `exchange`.
public class ThreadedDecoderLink: WireDecoderLink, @unchecked Sendable {
    /// The endpoint the link reaches.
    public let endpoint: String
    /// Wakes the I/O thread when it waits and the engine has queued something or asks it to stop.
    let wake: EventFD
    /// What the engine thread and the I/O thread share.
    let exchange: LinkExchange
    private let thread: IOThread

    /// Marks the exchange running and starts the I/O thread called
    /// `threadName` on `loop` (which must hold `wake` and `exchange`,
    /// never the link).
    init(endpoint: String, wake: EventFD, exchange: LinkExchange, threadName: String,
         loop: @escaping @Sendable () -> Void) {
        self.endpoint = endpoint
        self.wake = wake
        self.exchange = exchange
        exchange.markRunning()
        thread = IOThread(name: threadName, body: loop)
    }

    deinit { close() }

    /// Stops the I/O thread, letting what is queued for a connected decoder
    /// go out first (briefly; see each kind of link), and closes the socket.
    /// Later calls do nothing.
    public func close() {
        guard exchange.requestStop() else { return }
        wake.signal()
        thread.join()
    }

    /// Most frames waiting to be sent; beyond it the oldest are dropped (counted as unsent).
    public var outboundCapacity: Int { exchange.outboundCapacity }

    /// Both kinds of link watch heartbeats: the engine marks the link
    /// disconnected when the decoder falls silent.
    public var monitorsLiveness: Bool { true }

    /// Encodes `message` and queues it for the I/O thread; returns the
    /// frame queued, byte for byte what the socket sends.
    @discardableResult
    public func sendEncoded(_ message: UtopiaMessage) -> [UInt8]? { exchange.send(message, waking: wake) }

    /// Drains the messages received since the last call, each with the
    /// bytes of the frame (or of its part) that carried it.
    public func receiveWire() -> [WireMessage] { exchange.drainInbox() }

    /// Drains what went wrong since the last call: frames or messages that
    /// could not be decoded, connections lost or refused.
    public func receiveProblems() -> [String] { exchange.drainProblems() }

    /// Connections completed since the last call: the first and every
    /// reconnection (a decoder or hub restarted on the same endpoint).
    public func receiveConnections() -> Int { exchange.drainConnections() }

    /// Starts a new connection; each kind of link overrides it. Declared
    /// here so that the engine's call through ``DecoderLink`` reaches the
    /// override (a method only a subclass declares would leave the
    /// protocol's default, which does nothing, in its place).
    public func reconnect() {}

    /// The endpoint, for the engine's notices.
    public var endpointDescription: String? { endpoint }

    /// Frames that were not sent: no decoder connected when they were
    /// queued, the queue overflowed, or a frame was not wholly written when
    /// a connection was lost.
    public func receiveUnsent() -> [WireMessage] { exchange.drainUnsent() }

    /// A snapshot of the counters.
    public var statistics: DecoderLinkStatistics { exchange.statistics }
}
