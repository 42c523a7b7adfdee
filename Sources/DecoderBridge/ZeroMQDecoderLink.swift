import DequeModule
import Foundation
import IOThreads
import NoiseTagging
import Synchronization
import UtopiaProtocol
import ZeroMQTransport

/// The engine's link to a real decoder: a ZeroMQ DEALER socket connected to
/// the decoder's ROUTER.
///
/// One I/O thread owns the socket and does every send and receive. The
/// engine thread encodes outgoing messages into a queue and, when the I/O
/// thread is waiting, wakes it through an eventfd polled with the socket
/// (an I/O thread at work drains the queue before it waits again); received frames are
/// decoded on the I/O thread into a bounded inbox that ``receive()`` drains at
/// each tick. Malformed frames are dropped, counted and reported through
/// ``receiveProblems()``; they never reach the engine.
///
/// ``close()`` gives frames already queued for a connected decoder up to
/// ``closeLingerMilliseconds`` to go out, so a program that exits right
/// after its last press still delivers that press's SELECTION; with no
/// decoder connected nothing is queued and nothing waits.
/// ``ThreadedDecoderLink`` holds what it shares with the Utopia TCP link.
public final class ZeroMQDecoderLink: ThreadedDecoderLink, @unchecked Sendable {
    /// How long ``close()`` lets frames still queued for a connected decoder
    /// (typically the last SELECTION) go out before dropping them, milliseconds.
    public static let closeLingerMilliseconds: Int32 = 250
    /// Messages libzmq holds for the decoder (ZMQ_SNDHWM); beyond, a send
    /// fails and the message is counted unsent.
    public static let sendHighWaterMark: Int32 = 10_000

    /// Connects to `endpoint` with the connection settings' timings
    /// (`timeInBetweenAttemptsToConnect`, `timeoutConnecting`) and starts
    /// the I/O thread; with `curve`, over CurveZMQ (see
    /// ``init(endpoint:reconnectInterval:connectTimeout:inboxCapacity:outboundCapacity:context:curve:)``).
    ///
    /// ```swift
    /// let link = try ZeroMQDecoderLink(endpoint: endpoint, settings: NoiseTagging.settings)
    /// NoiseTagging.decoderLink = link
    /// let secured = try ZeroMQDecoderLink(endpoint: "tcp://10.0.0.5:5555", settings: NoiseTagging.settings,
    ///                                     curve: CurveClientKeys.standard(serverKey: decoderKey))
    /// ```
    public convenience init(endpoint: String, settings: NoiseTagSettings, curve: CurveClientKeys? = nil) throws(ZeroMQError) {
        try self.init(endpoint: endpoint,
                      reconnectInterval: settings.doubleFor(.timeInBetweenAttemptsToConnect),
                      connectTimeout: settings.doubleFor(.timeoutConnecting), curve: curve)
    }

    /// Connects to `endpoint` and starts the I/O thread. libzmq retries a
    /// connection that is not (or no longer) there every `reconnectInterval`
    /// seconds (ZMQ_RECONNECT_IVL); `connectTimeout` bounds one TCP connect
    /// attempt (ZMQ_CONNECT_TIMEOUT; nil leaves the system's).
    ///
    /// With `context` (needed for an `inproc://` decoder in the same process,
    /// which must share the context), ``close()`` does not wait for queued
    /// frames: libzmq writes them out within the linger after the socket closes.
    ///
    /// ```swift
    /// let context = ZeroMQContext()
    /// let server = try DecoderServer(endpoint: "inproc://decoder", context: context)
    /// let link = try ZeroMQDecoderLink(endpoint: "inproc://decoder", context: context)
    /// ```
    ///
    /// With `curve`, the link talks CurveZMQ: it proves itself with the
    /// client key pair (the decoder must list its public key) and accepts
    /// only the decoder holding the secret of `serverKey`. A decoder that
    /// refuses the key looks like no decoder: nothing is sent or received.
    public init(endpoint: String, reconnectInterval: Double = 0.1, connectTimeout: Double? = nil,
                inboxCapacity: Int = 4096, outboundCapacity: Int = 8192, context shared: ZeroMQContext? = nil,
                curve: CurveClientKeys? = nil) throws(ZeroMQError) {
        let exchange = LinkExchange(inboxCapacity: inboxCapacity, outboundCapacity: outboundCapacity)
        let context = shared ?? ZeroMQContext()      // its own by default, so that close() can wait for the queued frames
        let socket = try ZeroMQSocket(context: context, type: .dealer)
        try socket.set(.immediate(true))          // no queueing for a decoder that is not there
        try socket.set(.reconnectInterval(milliseconds: Self.milliseconds(reconnectInterval)))
        if let connectTimeout { try socket.set(.connectTimeout(milliseconds: Self.milliseconds(connectTimeout))) }
        try socket.set(.sendHighWaterMark(Self.sendHighWaterMark))
        try socket.set(.receiveHighWaterMark(10_000))
        if let curve { try socket.makeCurveClient(curve) }
        let wake = try EventFD()
        let monitor = try ZeroMQHandshakeMonitor(watching: socket)
        try socket.connect(endpoint)
        let loop = ZeroMQLinkLoop(socket: socket, endpoint: endpoint, monitor: monitor, wake: wake, exchange: exchange,
                                  context: context, ownsContext: shared == nil)
        self.loop = loop
        super.init(endpoint: endpoint, wake: wake, exchange: exchange, threadName: "nt-decoder-io") { loop.run() }
    }

    private let loop: ZeroMQLinkLoop

    /// Drops the connection and connects again at once. libzmq retries a
    /// connection that failed or closed by itself, but not one it ended for
    /// a protocol error, such as a frame over
    /// ``ZeroMQSocket/maximumMessageSize`` from the decoder: the engine's
    /// next connection attempt (see ``DecoderLink/reconnect()``) then
    /// starts a new one.
    override public func reconnect() {
        loop.reconnectRequested.store(true, ordering: .releasing)
        wake.signal()
    }

    /// `seconds` as whole milliseconds for a socket option, at least 1.
    static func milliseconds(_ seconds: Double) -> Int32 {
        let ms = (seconds * 1000).rounded()
        guard ms.isFinite else { return Int32.max }
        return Int32(min(max(ms, 1), Double(Int32.max)))
    }
}

/// The link's I/O thread: it owns the socket, and holds the exchange and the
/// wake-up, never the link, so a link released without ``ThreadedDecoderLink/close()``
/// closes from `deinit`.
// @unchecked: `socket` is not Sendable; only the I/O thread touches it. The link shares only the atomic.
private final class ZeroMQLinkLoop: @unchecked Sendable {
    let socket: ZeroMQSocket
    let endpoint: String
    let monitor: ZeroMQHandshakeMonitor
    let wake: EventFD
    let exchange: LinkExchange
    let context: ZeroMQContext
    let ownsContext: Bool
    /// Set by ``ZeroMQDecoderLink/reconnect()``; the I/O thread takes it.
    let reconnectRequested = Atomic<Bool>(false)

    init(socket: ZeroMQSocket, endpoint: String, monitor: ZeroMQHandshakeMonitor, wake: EventFD, exchange: LinkExchange,
         context: ZeroMQContext, ownsContext: Bool) {
        (self.socket, self.endpoint, self.monitor, self.wake) = (socket, endpoint, monitor, wake)
        (self.exchange, self.context, self.ownsContext) = (exchange, context, ownsContext)
    }

    func run() {
        var pending = Deque<[UInt8]>()
        let items: [ZeroMQPoll.Item] = [.socket(socket), .descriptor(wake.descriptor), .socket(monitor.socket)]
        while true {
            let (stop, idle) = exchange.beginWait()
            if stop { break }
            let ready = ZeroMQPoll.wait(items, milliseconds: idle ? 200 : 0)
            exchange.endWait()
            if ready[1].readable { wake.drain() }
            if ready[2].readable { exchange.countConnections(monitor.drainHandshakes()) }
            // A connection is made again only where the old one was ended: never two to one decoder.
            if reconnectRequested.exchange(false, ordering: .acquiringAndReleasing), (try? socket.disconnect(endpoint)) != nil {
                try? socket.connect(endpoint)
            }
            flushOutbound(&pending)
            readInbound()
        }
        flushOutbound(&pending)
        try? socket.set(.linger(milliseconds: ZeroMQDecoderLink.closeLingerMilliseconds))
        socket.close()
        monitor.close()
        if ownsContext { context.terminate() }   // returns once the queued frames are written or the linger has passed
    }

    /// Sends what is queued; `pending` is the I/O thread's spare queue, swapped with the engine's.
    private func flushOutbound(_ pending: inout Deque<[UInt8]>) {
        exchange.takeOutbound(into: &pending)
        guard !pending.isEmpty else { return }
        var sent = 0
        var unsent: [[UInt8]] = []
        for frame in pending {
            if (try? socket.send(frame, dontWait: true)) == true { sent += 1 } else { unsent.append(frame) }
        }
        exchange.count(sent: sent, unsent: unsent)
    }

    private func readInbound() {
        while let frame = try? socket.receive(dontWait: true) {
            switch WireMessage.split(frame: frame.bytes) {
            case .success(let messages): exchange.deliver(messages)
            case .failure(let error):
                exchange.report("malformed frame of \(frame.bytes.count) bytes dropped: \(error); \(LinkExchange.bytesShown(frame.bytes))",
                                malformed: true)
            }
        }
    }
}
