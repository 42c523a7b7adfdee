import UtopiaProtocol
import ZeroMQTransport

/// The decoder's Utopia TCP clients (MindAffect's presentation and
/// acquisition clients connect as they connect to their hub): the listener,
/// each accepted connection with its stream framer and the bytes waiting to
/// go out. Owned by the decoder's thread, polled in the same `zmq_poll` as
/// the ROUTER. Each client is a peer of the decoder like a ZeroMQ one, named
/// by an identity `utopia-tcp:N`.
struct UtopiaClients {
    let listener: TCPSocket
    private(set) var clients: [[UInt8]: Client] = [:]
    private var next = 1
    /// Bytes waiting for one client at most; a client that falls further behind is dropped.
    static let backlogLimit = 4 << 20

    struct Client {
        let socket: TCPSocket
        var framer = UtopiaStreamFramer()
        var pending: [UInt8] = []
        /// True once the client sent a whole message.
        var spoke = false
    }

    /// True for a client that has sent a message: its connection, not its
    /// silence, says whether it is there (MindAffect's clients go quiet for
    /// seconds between phases, as their hub allows).
    func hasSpoken(_ identity: [UInt8]) -> Bool { clients[identity]?.spoke == true }

    init(listener: TCPSocket) { self.listener = listener }

    static let prefix = Array("utopia-tcp:".utf8)

    /// True for the identity of a TCP client.
    static func isClient(_ identity: [UInt8]) -> Bool { identity.starts(with: prefix) }

    /// The poll items: the listener, then each client (POLLOUT while bytes wait), in `order`.
    func pollItems() -> (items: [ZeroMQPoll.Item], order: [[UInt8]]) {
        var items: [ZeroMQPoll.Item] = [.descriptor(listener.descriptor)]
        var order: [[UInt8]] = []
        for (identity, client) in clients {
            items.append(.descriptor(client.socket.descriptor, writable: !client.pending.isEmpty))
            order.append(identity)
        }
        return (items, order)
    }

    /// Takes every waiting connection; returns their identities.
    mutating func accept() -> [[UInt8]] {
        var accepted: [[UInt8]] = []
        while let socket = try? listener.accept() {
            let identity = Self.prefix + Array(String(next).utf8)
            next += 1
            clients[identity] = Client(socket: socket)
            accepted.append(identity)
        }
        return accepted
    }

    /// What arrived from `identity`, framed; `closed` says why the connection
    /// ended (the client left, or its stream could not be framed), and the client is gone then.
    mutating func read(_ identity: [UInt8]) -> (items: [UtopiaStreamFramer.Item], closed: String?) {
        guard var client = clients[identity] else { return ([], nil) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var items: [UtopiaStreamFramer.Item] = []
        var closed: String?
        reading: while true {
            do {
                guard let count = try client.socket.receive(into: &chunk) else { break }
                if count == 0 { closed = "the client closed the connection"; break }
                client.framer.append(chunk[..<count])
                while let item = client.framer.next() {
                    if case .lost(let reason) = item { closed = "its stream cannot be framed: \(reason)"; break reading }
                    if case .message = item { client.spoke = true }
                    items.append(item)
                }
                if count < chunk.count { break }
            } catch {
                closed = "\(error)"
                break
            }
        }
        if closed != nil { close(identity) } else { clients[identity] = client }
        return (items, closed)
    }

    /// Queues `frame` for `identity`; false (and the client is dropped) when it is too far behind.
    mutating func queue(_ frame: [UInt8], to identity: [UInt8]) -> Bool {
        guard clients[identity] != nil else { return false }
        if clients[identity]!.pending.count + frame.count > Self.backlogLimit {
            close(identity)
            return false
        }
        clients[identity]!.pending.append(contentsOf: frame)
        return true
    }

    /// Writes what waits for each client; returns the clients dropped on a write error, with the reason.
    mutating func flush() -> [(identity: [UInt8], reason: String)] {
        var dropped: [([UInt8], String)] = []
        for (identity, client) in clients where !client.pending.isEmpty {
            do {
                let written = try client.socket.send(client.pending[...])
                clients[identity]!.pending.removeFirst(written)
            } catch {
                close(identity)
                dropped.append((identity, "\(error)"))
            }
        }
        return dropped
    }

    /// Closes and forgets `identity`.
    mutating func close(_ identity: [UInt8]) {
        clients[identity]?.socket.close()
        clients[identity] = nil
    }

    /// Closes every connection and the listener.
    mutating func closeAll() {
        for identity in Array(clients.keys) { close(identity) }
        listener.close()
    }
}
