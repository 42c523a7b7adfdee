import DecoderBridge
import Foundation
import IOThreads
import UtopiaProtocol
import ZeroMQTransport

/// The decoder side of the bridge benchmark: a ROUTER socket on its own
/// thread that records arrival times, answers with a prediction, or counts.
// @unchecked: the fields below `lock` are only touched under it; the ROUTER socket only by the serve thread.
final class BenchDecoder: @unchecked Sendable {
    /// `record` arrival times, `reply` to each message with a prediction,
    /// `count` only, or `heartbeat`: answer every message but STIMULUSEVENTs,
    /// and every sixth STIMULUSEVENT, with a HEARTBEAT: about as much traffic
    /// as a decoder sends a 60 Hz engine, and never silent for long.
    enum Mode { case record, reply, count, heartbeat }

    private let router: ZeroMQSocket
    private let lock = NSLock()
    private var mode: Mode = .count
    private var arrivals: [UInt64]
    private var received = 0
    private var stimuli = 0
    private var lastArrival: UInt64 = 0
    private var stopping = false
    /// The serving thread; it holds the benchmark decoder until ``stop()``.
    private var thread: IOThread?
    private let reply = UtopiaCodec.encode(.predictedTargetProb(PredictedTargetProb(timestamp: 0, objID: 1, errorProbability: 0.05)))
    private let heartbeat = UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 0)))

    init(endpoint: String, capacity: Int) throws {
        router = try ZeroMQSocket(type: .router)
        try router.set(.receiveTimeout(milliseconds: 50))
        try router.set(.receiveHighWaterMark(0))
        try router.bind(endpoint)
        arrivals = Array(repeating: 0, count: capacity)
        thread = IOThread(name: "nt-bench-dec") { [self] in self.serve() }
    }

    func setMode(_ newMode: Mode) {
        lock.lock()
        mode = newMode
        received = 0
        for i in arrivals.indices { arrivals[i] = 0 }
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Spins until message `index` arrived; its arrival time, or nil after 2 s.
    func waitForArrival(of index: Int) -> UInt64? {
        let deadline = MonotonicClock.nanoseconds() &+ 2_000_000_000
        while MonotonicClock.nanoseconds() < deadline {
            lock.lock()
            let t = arrivals[index]
            lock.unlock()
            if t != 0 { return t }
        }
        return nil
    }

    /// Waits until `done(messages arrived so far)` holds; the time of the
    /// last arrival, or nil on timeout.
    func waitForCount(timeoutNanoseconds: UInt64, until done: (Int) -> Bool) -> UInt64? {
        let deadline = MonotonicClock.nanoseconds() &+ timeoutNanoseconds
        while MonotonicClock.nanoseconds() < deadline {
            lock.lock()
            let (n, last) = (received, lastArrival)
            lock.unlock()
            if done(n) { return last }
            usleep(200)
        }
        return nil
    }

    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        thread?.join()
    }

    private func serve() {
        while true {
            lock.lock()
            let stop = stopping
            lock.unlock()
            if stop { break }
            guard let identity = try? router.receive(), identity.more,
                  let body = try? router.receive() else { continue }
            let now = MonotonicClock.nanoseconds()
            lock.lock()
            let current = mode
            received += 1
            lastArrival = now
            if current == .record, body.bytes.count >= 8 {
                // Wire boundary: the payload's first int32 (little-endian) is the benchmark's sample index.
                let index = Int(Int32(littleEndian: body.bytes[4...7].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }))
                if index >= 0, index < arrivals.count { arrivals[index] = now }
            }
            let isStimulus = body.bytes.first == UInt8(ascii: "E")
            if isStimulus { stimuli += 1 }
            let answerStimulus = stimuli % 6 == 0
            lock.unlock()
            if current == .reply || (current == .heartbeat && (!isStimulus || answerStimulus)) {
                _ = try? router.send(identity.bytes, more: true)
                _ = try? router.send(current == .reply ? reply : heartbeat)
            }
        }
        router.close()
    }
}
