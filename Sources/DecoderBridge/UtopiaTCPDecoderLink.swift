import DequeModule
import Foundation
import IOThreads
import NoiseTagging
import Synchronization
import UtopiaProtocol
import ZeroMQTransport
#if canImport(Glibc)
import Glibc
#endif

/// The engine's link to a MindAffect Utopia hub (or to the reference
/// decoder's Utopia port) over TCP: `utopia://HOST:PORT`, the hub's own
/// stream of Utopia messages, back to back. It behaves like
/// ``ZeroMQDecoderLink`` — the engine watches heartbeats, SUBSCRIBEs and
/// reconnects through it the same way — so an app switches transports by
/// changing one string.
///
/// One I/O thread owns the socket. Outgoing messages queue (bounded) and
/// go out whole, in order; while no connection is up they are dropped and
/// counted as unsent (the engine sends SUBSCRIBE and its mode again when
/// the decoder answers). Incoming bytes are cut into messages by a
/// ``UtopiaStreamFramer``: a message whose payload does not decode is
/// dropped and reported; a header that cannot be trusted (unknown id, a
/// length beyond the maximum) drops the connection, because nothing after
/// it can be framed. A dropped or refused connection is tried again after
/// `reconnectInterval`. Problems reach the engine through
/// ``receiveProblems()``.
///
/// ``close()`` writes what is queued for a connected hub first.
/// ``ThreadedDecoderLink`` holds what it shares with the ZeroMQ link.
public final class UtopiaTCPDecoderLink: ThreadedDecoderLink, @unchecked Sendable {
    /// The host and port connected to.
    public let host: String
    public let port: UInt16
    /// Seconds between attempts to reach the hub.
    public let reconnectInterval: Double
    /// Seconds one attempt may take.
    public let connectTimeout: Double
    /// The largest payload accepted from the hub, bytes.
    public let maximumPayloadLength: Int
    private let loop: UtopiaLinkLoop

    /// Reads `utopia://HOST:PORT` (see ``DecoderEndpoint/utopiaAddress(_:)``).
    public static func parse(_ endpoint: String) throws(DecoderEndpoint.Problem) -> (host: String, port: UInt16) {
        try DecoderEndpoint.utopiaAddress(endpoint)
    }

    /// Starts the I/O thread, which connects to the hub (and keeps trying).
    /// Throws only for a malformed endpoint or when the thread's wake-up
    /// descriptor cannot be made: a hub that is not there yet is not an error.
    public init(endpoint: String, reconnectInterval: Double = 1, connectTimeout: Double = 1,
                outboundCapacity: Int = 10_000, inboxCapacity: Int = 10_000,
                maximumPayloadLength: Int = UtopiaCodec.maximumPayloadLength) throws(DecoderEndpoint.Problem) {
        let (host, port) = try Self.parse(endpoint)
        self.host = host
        self.port = port
        self.reconnectInterval = max(0.01, reconnectInterval)
        self.connectTimeout = max(0.01, connectTimeout)
        self.maximumPayloadLength = maximumPayloadLength
        let wake: EventFD
        do { wake = try EventFD() } catch {
            throw DecoderEndpoint.Problem(subject: endpoint, reason: "cannot make the I/O thread's wake-up descriptor: \(error)")
        }
        let exchange = LinkExchange(inboxCapacity: inboxCapacity, outboundCapacity: outboundCapacity)
        let loop = UtopiaLinkLoop(host: host, port: port, reconnectInterval: self.reconnectInterval,
                                  connectTimeout: self.connectTimeout, maximumPayloadLength: maximumPayloadLength,
                                  wake: wake, exchange: exchange)
        self.loop = loop
        super.init(endpoint: endpoint, wake: wake, exchange: exchange, threadName: "nt-utopia-io") { loop.run() }
    }

    /// Makes the link from the `decoderEndpoint` setting's reconnection settings.
    public convenience init(endpoint: String, settings: NoiseTagSettings) throws(DecoderEndpoint.Problem) {
        try self.init(endpoint: endpoint, reconnectInterval: settings.doubleFor(.timeInBetweenAttemptsToConnect),
                      connectTimeout: min(settings.doubleFor(.timeoutConnecting), 2))
    }

    /// True while a TCP connection to the hub is up.
    public var isConnected: Bool { loop.connected.load(ordering: .acquiring) }

    /// Drops the connection (if any) and connects again at once.
    override public func reconnect() {
        loop.reconnectRequested.store(true, ordering: .releasing)
        wake.signal()
    }
}

/// The link's I/O thread: it owns the TCP connection and its framer, and
/// holds the exchange and the wake-up, never the link, so a link released
/// without ``ThreadedDecoderLink/close()`` closes from `deinit`.
// @unchecked: the socket and framer are the I/O thread's alone; shared state is in `exchange` and the two atomics.
private final class UtopiaLinkLoop: @unchecked Sendable {
    let host: String
    let port: UInt16
    let reconnectInterval: Double
    let connectTimeout: Double
    let maximumPayloadLength: Int
    let wake: EventFD
    let exchange: LinkExchange
    let connected = Atomic(false)
    let reconnectRequested = Atomic(false)

    init(host: String, port: UInt16, reconnectInterval: Double, connectTimeout: Double, maximumPayloadLength: Int,
         wake: EventFD, exchange: LinkExchange) {
        self.host = host
        self.port = port
        self.reconnectInterval = reconnectInterval
        self.connectTimeout = connectTimeout
        self.maximumPayloadLength = maximumPayloadLength
        self.wake = wake
        self.exchange = exchange
    }

    func run() {
        var socket: TCPSocket?
        var framer = UtopiaStreamFramer(maximumPayloadLength: maximumPayloadLength)
        var pending: [UInt8] = []
        // The frames whose bytes are in `pending`, and how much of the first is written:
        // a frame counts as sent once wholly written, and those lost with a connection are listed.
        var pendingFrames: Deque<[UInt8]> = []
        var firstFrameWritten = 0
        var nextAttempt = 0.0
        var failures = 0
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let clock = MonotonicClock.shared

        func queue(_ frame: [UInt8]) {
            pending.append(contentsOf: frame)
            pendingFrames.append(frame)
        }

        func wrote(_ count: Int) {
            pending.removeFirst(count)
            var done = 0
            firstFrameWritten += count
            while let first = pendingFrames.first, firstFrameWritten >= first.count {
                firstFrameWritten -= first.count
                pendingFrames.removeFirst()
                done += 1
            }
            if done > 0 { exchange.count(sent: done, unsent: []) }
        }

        func drop(_ reason: String) {
            socket?.close()
            socket = nil
            pending.removeAll()
            exchange.count(sent: 0, unsent: pendingFrames)
            pendingFrames.removeAll()
            firstFrameWritten = 0
            connected.store(false, ordering: .releasing)
            nextAttempt = clock.now + reconnectInterval
            exchange.report("Utopia hub \(host):\(port): \(reason); connecting again in \(reconnectInterval) s")
        }

        while true {
            if exchange.isStopping { break }
            let requested = reconnectRequested.exchange(false, ordering: .acquiringAndReleasing)
            if requested {
                if socket != nil { drop("the engine asked to reconnect") }
                nextAttempt = 0
            }
            if socket == nil, clock.now >= nextAttempt {
                do {
                    socket = try TCPSocket.connect(host: host, port: port, timeout: connectTimeout)
                    framer = UtopiaStreamFramer(maximumPayloadLength: maximumPayloadLength)
                    failures = 0
                    connected.store(true, ordering: .releasing)
                    exchange.countConnections(1)
                } catch {
                    failures += 1
                    nextAttempt = clock.now + reconnectInterval
                    // The first failure and then every tenth, so a missing hub does not flood the engine.
                    if failures == 1 || failures % 10 == 0 {
                        exchange.report("cannot reach the Utopia hub (\(error)); attempt \(failures), trying every \(reconnectInterval) s")
                    }
                }
            }
            // Outgoing: written when connected, dropped (and counted) otherwise.
            let outgoing = exchange.takeOutbound()
            if !outgoing.isEmpty {
                if socket != nil {
                    for frame in outgoing { queue(frame) }
                } else {
                    exchange.count(sent: 0, unsent: outgoing)
                }
            }
            var items = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
            if let socket {
                items.append(pollfd(fd: socket.descriptor, events: Int16(POLLIN) | (pending.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
            }
            let (stopping, idle) = exchange.beginWait()
            if stopping { break }
            // New messages to write: no wait. Otherwise up to 200 ms (bytes waiting to go out wake it through
            // POLLOUT), or until the next attempt to connect.
            let wait = !idle ? 0 : socket == nil ? min(0.2, max(0.001, nextAttempt - clock.now)) : 0.2
            _ = poll(&items, nfds_t(items.count), Int32(wait * 1000))
            exchange.endWait()
            if items[0].revents & Int16(POLLIN) != 0 { wake.drain() }
            guard let connection = socket, items.count > 1 else { continue }
            let events = items[1].revents
            do {
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    reading: while let count = try connection.receive(into: &chunk) {
                        if count == 0 { drop("the hub closed the connection"); break reading }
                        framer.append(chunk[..<count])
                        var received: [WireMessage] = []
                        while let item = framer.next() {
                            switch item {
                            case .message(let message, let bytes):
                                received.append(WireMessage(message: message, bytes: bytes))
                            case .rejected(let bytes, let error):
                                exchange.report("malformed \(bytes.count)-byte message from the hub dropped: \(error); \(LinkExchange.bytesShown(bytes))",
                                                malformed: true)
                            case .lost(let reason):
                                exchange.countMalformed()
                                exchange.deliver(received)
                                drop("the stream cannot be framed: \(reason)")
                                break reading
                            }
                        }
                        exchange.deliver(received)
                        if count < chunk.count { break }
                    }
                }
                if let connection = socket, !pending.isEmpty {
                    wrote(try connection.send(pending[...]))
                }
            } catch {
                drop("\(error)")
            }
        }
        // What is queued for a connected hub goes out before the link closes (briefly).
        if let socket {
            for frame in exchange.takeOutbound() { queue(frame) }
            let deadline = clock.now + 0.25
            while !pending.isEmpty, clock.now < deadline, let written = try? socket.send(pending[...]) {
                wrote(written)
                if written == 0 { usleep(1000) }
            }
            socket.close()
            exchange.count(sent: 0, unsent: pendingFrames)
        } else {
            exchange.count(sent: 0, unsent: exchange.takeOutbound())
        }
        exchange.markStopped()
    }
}
