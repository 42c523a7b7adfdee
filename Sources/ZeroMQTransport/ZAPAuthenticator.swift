import CZeroMQ
import Foundation
import IOThreads
import Synchronization

/// libzmq's ZeroMQ Authentication Protocol handler (ZAP, RFC 27) for one
/// context: a REP socket bound on `inproc://zeromq.zap.01`, on a small
/// thread of its own that polls it with an eventfd. libzmq asks it about
/// every client completing a CURVE handshake with a CURVE server socket of
/// the context; it lets in only the client keys listed for that socket's
/// ZAP domain and refuses everything else.
///
/// A context has at most one handler; every server socket registers its
/// own domain with its own keys, and the handler stops when the last
/// registration is cancelled. Register before binding a CURVE server
/// socket and cancel after closing it: a CURVE server with no handler in
/// its context lets every client in.
///
/// ```swift
/// let keys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: [engineKey])
/// let registration = try ZAPAuthenticator.register(domain: "decoder", authorizedKeys: keys.authorizedClients) { decision in
///     if !decision.accepted { print("refused \(decision.clientKey.map(\.z85) ?? "?") from \(decision.address)") }
/// }
/// let router = try ZeroMQSocket(type: .router)
/// try router.makeCurveServer(keyPair: keys.keyPair, zapDomain: "decoder")
/// try router.bind("tcp://*:5555")
/// // … serve …
/// router.close()
/// registration.cancel()
/// ```
// @unchecked: `socket` is not Sendable, but only the handler's thread touches it after init; shared state is in `state`.
public final class ZAPAuthenticator: @unchecked Sendable {
    /// The endpoint libzmq sends ZAP requests to.
    public static let endpoint = "inproc://zeromq.zap.01"

    /// One answer the handler gave, as `register`'s `report` hears it.
    ///
    /// ```swift
    /// let registration = try ZAPAuthenticator.register(domain: "decoder", authorizedKeys: listed) { decision in
    ///     if !decision.accepted { print("\(decision.address): \(decision.reason)") }
    /// }
    /// ```
    public struct Decision: Sendable, Equatable {
        /// The ZAP domain of the server socket asked about.
        public let domain: String
        /// The client's IP address, as libzmq gives it.
        public let address: String
        /// The security mechanism (`CURVE`).
        public let mechanism: String
        /// The client's public key (CURVE only).
        public let clientKey: CurveKey?
        /// True when the client was let in.
        public let accepted: Bool
        /// The status text sent back ("OK", "client key not authorized", …).
        public let reason: String
    }

    /// A ZAP domain served by the context's handler, until ``cancel()``
    /// (also done when the registration is released).
    public final class Registration: Sendable {
        /// The domain served.
        public let domain: String
        private let context: ZeroMQContext
        private let cancelled = Mutex(false)

        init(domain: String, context: ZeroMQContext) {
            self.domain = domain
            self.context = context
        }

        /// Stops serving the domain (its clients are refused from now on);
        /// the handler stops with its last domain. Later calls do nothing.
        public func cancel() {
            let first = cancelled.withLock { cancelled in
                defer { cancelled = true }
                return !cancelled
            }
            if first { ZAPAuthenticator.unregister(domain: domain, context: context) }
        }

        deinit { cancel() }
    }

    /// Serves `domain` in `context`'s handler, starting the handler (and
    /// binding `inproc://zeromq.zap.01`) when it is the first. `report`
    /// hears every decision about the domain's clients, on the handler's
    /// thread. Throws when the domain is already served, or when something
    /// else is bound on the ZAP endpoint of the context.
    public static func register(domain: String, authorizedKeys: Set<CurveKey>, context: ZeroMQContext = .shared,
                                report: (@Sendable (Decision) -> Void)? = nil) throws(ZeroMQError) -> Registration {
        try handlers.withLock { handlers throws(ZeroMQError) in
            let id = ObjectIdentifier(context)
            let handler: ZAPAuthenticator
            if let running = handlers[id] {
                handler = running
            } else {
                handler = try ZAPAuthenticator(context: context)
                handlers[id] = handler
            }
            let added = handler.state.withLock { state in
                guard state.domains[domain] == nil else { return false }
                state.domains[domain] = Domain(keys: authorizedKeys, report: report)
                return true
            }
            guard added else {
                throw ZeroMQError(call: "ZAP register", endpoint: Self.endpoint, code: EEXIST,
                                  explanation: "the ZAP domain \"\(domain)\" is already served in this context")
            }
        }
        return Registration(domain: domain, context: context)
    }

    private static func unregister(domain: String, context: ZeroMQContext) {
        handlers.withLock { handlers in
            let id = ObjectIdentifier(context)
            guard let handler = handlers[id] else { return }
            let empty = handler.state.withLock { state in
                state.domains[domain] = nil
                return state.domains.isEmpty
            }
            if empty {
                handler.stop()
                handlers[id] = nil
            }
        }
    }

    /// The running handler of each context (a handler's socket keeps its context alive).
    private static let handlers = Mutex<[ObjectIdentifier: ZAPAuthenticator]>([:])

    private struct Domain {
        var keys: Set<CurveKey>
        var report: (@Sendable (Decision) -> Void)?
    }
    private struct State {
        var domains: [String: Domain] = [:]
        var stopping = false
    }
    private let state = Mutex(State())
    private let socket: ZeroMQSocket
    private let wake: EventFD
    /// The handler's thread; it holds the handler until ``stop()``.
    private var thread: IOThread?

    private init(context: ZeroMQContext) throws(ZeroMQError) {
        socket = try ZeroMQSocket(context: context, type: .reply)
        wake = try EventFD()
        // A handler of this context that just stopped may still hold the inproc endpoint: libzmq
        // releases it on its own thread after the socket closes. Wait for that, up to a second.
        var attempts = 0
        while true {
            do {
                try socket.bind(Self.endpoint)
                break
            } catch where error.code == EADDRINUSE {
                attempts += 1
                guard attempts < 200 else {
                    throw ZeroMQError(call: "zmq_bind", endpoint: Self.endpoint, code: EADDRINUSE,
                                      explanation: "another ZAP handler is bound in this ZeroMQ context")
                }
                usleep(5_000)
            }
        }
        thread = IOThread(name: "nt-zap") { [self] in run() }
    }

    private func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
        thread?.join()
    }

    // MARK: The handler's thread

    private func run() {
        var items = [zmq_pollitem_t(socket: socket.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
                     zmq_pollitem_t(socket: nil, fd: wake.descriptor, events: Int16(ZMQ_POLLIN), revents: 0)]
        while !state.withLock({ $0.stopping }) {
            if zmq_poll(&items, 2, -1) < 0 {                    // C boundary: libzmq reads and fills the two items
                if zmq_errno() == EINTR { continue }
                break                                            // ETERM: the context is ending
            }
            if items[1].revents & Int16(ZMQ_POLLIN) != 0 { wake.drain() }
            while let request = receiveRequest() {
                let reply = answer(request)
                for (index, frame) in reply.enumerated() {
                    _ = try? socket.send(frame, more: index < reply.count - 1, dontWait: true)
                }
            }
        }
        socket.close()
    }

    /// The frames of the next request, nil when none waits.
    private func receiveRequest() -> [[UInt8]]? {
        guard let first = try? socket.receive(dontWait: true) else { return nil }
        var frames = [first.bytes]
        var more = first.more
        while more, let part = try? socket.receive(dontWait: true) {
            frames.append(part.bytes)
            more = part.more
        }
        return frames
    }

    /// The reply frames to a request: version, request id, status code,
    /// status text, user id, metadata (RFC 27).
    private func answer(_ request: [[UInt8]]) -> [[UInt8]] {
        func reply(_ code: String, _ text: String, user: String = "") -> [[UInt8]] {
            [Array("1.0".utf8), request.count > 1 ? request[1] : [], Array(code.utf8), Array(text.utf8), Array(user.utf8), []]
        }
        guard request.count >= 6, request[0] == Array("1.0".utf8) else { return reply("400", "malformed ZAP request") }
        let domainName = String(decoding: request[2], as: UTF8.self)
        let address = String(decoding: request[3], as: UTF8.self)
        let mechanism = String(decoding: request[5], as: UTF8.self)
        guard let domain = state.withLock({ $0.domains[domainName] }) else { return reply("400", "unknown ZAP domain") }
        let key = request.count > 6 ? CurveKey(bytes: request[6]) : nil
        let accepted = mechanism == "CURVE" && key.map { domain.keys.contains($0) } == true
        let reason = accepted ? "OK" : mechanism != "CURVE" ? "CURVE required" : "client key not authorized"
        domain.report?(Decision(domain: domainName, address: address, mechanism: mechanism, clientKey: key,
                                accepted: accepted, reason: reason))
        return accepted ? reply("200", reason, user: key?.z85 ?? "") : reply("400", reason)
    }
}
