/// The decoder's record of its clients (engines and acquisition clients),
/// one per ZeroMQ identity: what each subscribed to, when it was last heard
/// and when it was last sent a heartbeat (`Protocols/decoder-bridge.md` §4).
struct PeerTable {
    struct Peer {
        var subscription: Set<UInt8>?
        var lastHeard: Double
        var lastHeartbeat: Double
    }

    private(set) var peers: [[UInt8]: Peer] = [:]

    /// Notes a message from `identity` at `now`; true when the peer is new.
    mutating func heard(from identity: [UInt8], at now: Double) -> Bool {
        if peers[identity] != nil {
            peers[identity]!.lastHeard = now
            return false
        }
        peers[identity] = Peer(subscription: nil, lastHeard: now, lastHeartbeat: -Double.infinity)
        return true
    }

    /// A new SUBSCRIBE replaces the previous one.
    mutating func subscribe(_ identity: [UInt8], to ids: String) {
        peers[identity]?.subscription = Set(ids.utf8)
    }

    /// True when `identity` is to receive a message with `id`: heartbeats always, others if subscribed.
    func wants(_ identity: [UInt8], _ id: UInt8) -> Bool {
        guard let peer = peers[identity] else { return false }
        return id == UInt8(ascii: "H") || peer.subscription?.contains(id) == true
    }

    /// The peers due a heartbeat at `now`, marked as sent.
    mutating func dueHeartbeats(at now: Double, interval: Double) -> [[UInt8]] {
        var due: [[UInt8]] = []
        for (identity, peer) in peers where now - peer.lastHeartbeat >= interval {
            peers[identity]!.lastHeartbeat = now
            due.append(identity)
        }
        return due
    }

    /// Forgets the peers silent for `timeout`; returns how many.
    mutating func forgetSilent(at now: Double, timeout: Double, keeping keep: ([UInt8]) -> Bool = { _ in false }) -> [[UInt8]] {
        let silent = peers.filter { now - $0.value.lastHeard > timeout && !keep($0.key) }.map(\.key)
        for identity in silent { peers[identity] = nil }
        return silent
    }

    /// Forgets `identity` at once (its connection ended).
    mutating func forget(_ identity: [UInt8]) { peers[identity] = nil }
}
