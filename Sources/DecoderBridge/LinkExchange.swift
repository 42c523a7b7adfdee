import DequeModule
import NoiseTagging
import Synchronization
import UtopiaProtocol
import ZeroMQTransport

/// What a decoder link's engine side and its I/O thread share, behind one
/// `Mutex`: the bounded queue of frames to send, the bounded inbox of
/// messages received, the problems to report, the counters, and whether the
/// I/O thread runs, should stop, or waits idle (only then does a send need
/// to wake it). ``ZeroMQDecoderLink`` and ``UtopiaTCPDecoderLink`` differ
/// only in the socket their I/O thread drives.
final class LinkExchange: Sendable {
    private struct State {
        var outbound: Deque<[UInt8]> = []
        var inbox: DecoderInbox
        var problems: [String] = []
        /// Frames the engine queued that never reached the socket, oldest first.
        var unsent: Deque<[UInt8]> = []
        /// Unsent frames beyond ``LinkExchange/unsentLimit`` (counted, not kept).
        var unsentUnlisted = 0
        /// Connections the link completed since the engine last asked.
        var connectionsMade = 0
        var counters = DecoderLinkStatistics()
        var running = false
        var stopping = false
        var ioWaiting = false
    }
    private let state: Mutex<State>
    /// True while the inbox, the problems or the unsent frames hold
    /// something for the engine: set under the lock when one is added,
    /// recomputed under it when one is drained, so the engine's per-tick
    /// drains skip the lock when there is nothing (most ticks).
    private let forEngine = Atomic<Bool>(false)
    let outboundCapacity: Int
    /// Problems kept until the engine drains them; later ones are dropped.
    static let problemLimit = 256
    /// Most unsent frames kept between two engine ticks (the engine drains
    /// them every tick; this bounds memory if it stops ticking).
    static let unsentLimit = 4096

    init(inboxCapacity: Int, outboundCapacity: Int) {
        self.outboundCapacity = max(1, outboundCapacity)
        state = Mutex(State(inbox: DecoderInbox(capacity: inboxCapacity)))
    }

    // MARK: Lifecycle

    func markRunning() { state.withLock { $0.running = true } }
    func markStopped() { state.withLock { $0.running = false } }

    /// Asks the I/O thread to stop; true when it was running and had not been asked yet.
    func requestStop() -> Bool {
        state.withLock { state in
            defer { state.stopping = true }
            return state.running && !state.stopping
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: Engine side

    /// Queues a frame (dropping and counting the oldest when full); true when
    /// the I/O thread waits idle and must be woken.
    /// Encodes `message` (once), queues the frame and wakes the I/O thread
    /// through `wake` if it waits; returns the frame, byte for byte what goes
    /// on the wire. A link's `send` is this.
    func send(_ message: UtopiaMessage, waking wake: EventFD) -> [UInt8] {
        let bytes = UtopiaCodec.encode(message)
        // The I/O thread drains the queue before it waits again; wake it only when it waits.
        if enqueue(bytes) { wake.signal() }
        return bytes
    }

    private func enqueue(_ frame: [UInt8]) -> Bool {
        state.withLock { state in
            if state.outbound.count >= outboundCapacity {
                Self.listUnsent(state.outbound.removeFirst(), in: &state)
                settle(state)
            }
            state.outbound.append(frame)
            defer { state.ioWaiting = false }
            return state.ioWaiting
        }
    }

    func drainInbox() -> [WireMessage] {
        guard forEngine.load(ordering: .acquiring) else { return [] }
        return state.withLock { state in
            defer { settle(state) }
            return state.inbox.drain()
        }
    }

    /// Called under the lock after anything for the engine changed.
    private func settle(_ state: borrowing State) {
        let waiting = !state.inbox.messages.isEmpty || !state.problems.isEmpty || !state.unsent.isEmpty || state.unsentUnlisted > 0
            || state.connectionsMade > 0
        forEngine.store(waiting, ordering: .releasing)
    }

    /// The frames not sent since the last call, decoded again for the
    /// recording's message id (they were encoded by this link, so they decode).
    func drainUnsent() -> [WireMessage] {
        guard forEngine.load(ordering: .acquiring) else { return [] }
        let (frames, unlisted) = state.withLock { state in
            defer { state.unsent.removeAll(); state.unsentUnlisted = 0; settle(state) }
            return (state.unsent, state.unsentUnlisted)
        }
        if unlisted > 0 {
            report("\(unlisted) more frames were not sent and are not listed (the engine did not tick for a while)")
        }
        return frames.flatMap { frame -> [WireMessage] in
            if case .success(let messages) = WireMessage.split(frame: frame) { return messages }
            return []
        }
    }

    /// How many connections the link completed since the last call.
    func drainConnections() -> Int {
        guard forEngine.load(ordering: .acquiring) else { return 0 }
        return state.withLock { state in
            defer { state.connectionsMade = 0; settle(state) }
            return state.connectionsMade
        }
    }

    func drainProblems() -> [String] {
        guard forEngine.load(ordering: .acquiring) else { return [] }
        return state.withLock { state in
            defer { state.problems.removeAll(); settle(state) }
            return state.problems
        }
    }

    var statistics: DecoderLinkStatistics {
        state.withLock { state in
            var snapshot = state.counters
            snapshot.queued = state.outbound.count
            snapshot.droppedPredictions = state.inbox.droppedPredictions
            snapshot.droppedOther = state.inbox.droppedOther
            return snapshot
        }
    }

    // MARK: I/O thread

    /// Before waiting: whether to stop, and whether nothing is queued (the wait may then block).
    func beginWait() -> (stopping: Bool, idle: Bool) {
        state.withLock { state in
            state.ioWaiting = state.outbound.isEmpty
            return (state.stopping, state.ioWaiting)
        }
    }

    func endWait() { state.withLock { $0.ioWaiting = false } }

    /// Everything queued to send, in order.
    func takeOutbound() -> Deque<[UInt8]> {
        var taken = Deque<[UInt8]>()
        takeOutbound(into: &taken)
        return taken
    }

    /// Swaps the queued frames into `spare` (emptied first, keeping its
    /// capacity), so that neither side allocates while holding the lock
    /// when the I/O thread reuses one spare queue.
    func takeOutbound(into spare: inout Deque<[UInt8]>) {
        spare.removeAll(keepingCapacity: true)
        state.withLock { state in swap(&state.outbound, &spare) }
    }

    /// Counts `sent` frames handed to the socket and lists `unsent` ones, which never reached it.
    func count(sent: Int, unsent: some Sequence<[UInt8]>) {
        state.withLock { state in
            state.counters.sent += sent
            for frame in unsent { Self.listUnsent(frame, in: &state) }
            settle(state)
        }
    }

    private static func listUnsent(_ frame: [UInt8], in state: inout State) {
        state.counters.unsent += 1
        if state.unsent.count < unsentLimit { state.unsent.append(frame) } else { state.unsentUnlisted += 1 }
    }

    func deliver(_ messages: [WireMessage]) {
        guard !messages.isEmpty else { return }
        state.withLock { state in
            state.counters.received += messages.count
            for message in messages { state.inbox.append(message) }
            settle(state)
        }
    }

    /// Counts `count` connections completed (a first connection or a reconnection).
    func countConnections(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { state in
            state.connectionsMade += count
            state.counters.connections += count
            settle(state)
        }
    }

    /// A dropped frame's bytes for its report: lower-case hex, the first
    /// ``malformedBytesShown`` only (the report is a line of an event), so a
    /// recording's `decoderProblem` events keep what a bad decoder sent.
    static func bytesShown(_ bytes: [UInt8]) -> String {
        let shown = Hex.string(Array(bytes.prefix(malformedBytesShown)))
        return bytes.count > malformedBytesShown ? "bytes \(shown)… (first \(malformedBytesShown) of \(bytes.count))" : "bytes \(shown)"
    }

    /// How many of a malformed frame's bytes its report shows.
    static let malformedBytesShown = 64

    /// Counts a message that could not be read (reported by the caller in its own words).
    func countMalformed() { state.withLock { $0.counters.malformed += 1 } }

    /// A problem for the engine; `malformed` counts a message that could not be read.
    func report(_ problem: String, malformed: Bool = false) {
        state.withLock { state in
            if malformed { state.counters.malformed += 1 }
            if state.problems.count < Self.problemLimit { state.problems.append(problem) }
            settle(state)
        }
    }
}
