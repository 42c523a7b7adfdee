import ZeroMQTransport
import DecoderBridge
import Foundation
import NoiseTagging
import UtopiaProtocol

/// Measures the decoder bridge over a real `ipc://` socket in a private
/// temporary folder: one-way latency engine → decoder, the prediction round
/// trip (STIMULUSEVENT out through `ZeroMQDecoderLink`, PREDICTEDTARGETPROB
/// back, drained by `receive()`), STIMULUSEVENT throughput, and a bare libzmq
/// DEALER/ROUTER ping-pong with the same frames as the floor.
struct BridgeBenchmark {
    /// Timed messages per latency phase.
    let samples: Int
    /// Messages in the throughput burst.
    let burst: Int
    /// Objects per STIMULUSEVENT.
    let objects: Int

    func run() throws -> BridgeBenchmarkResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("noisetag-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = "ipc://\(folder.path)/decoder.sock"
        let decoder = try BenchDecoder(endpoint: endpoint, capacity: max(samples, burst))
        defer { decoder.stop() }

        let link = try ZeroMQDecoderLink(endpoint: endpoint)
        defer { link.close() }
        try waitForConnection(link, decoder)

        // One-way: paced, one message in flight.
        decoder.setMode(.record)
        let oneWay = try latencies { i, sent in
            link.send(stimulus(Int32(i)))
            guard let arrived = decoder.waitForArrival(of: i) else { throw BridgeBenchmarkError.lost("one-way message \(i)") }
            return arrived
        }

        // Round trip through the link: the decoder answers each STIMULUSEVENT with a prediction.
        decoder.setMode(.reply)
        let roundTrip = try latencies { i, sent in
            link.send(stimulus(Int32(i)))
            let deadline = sent &+ 2_000_000_000
            var got = false
            while !got && MonotonicClock.nanoseconds() < deadline {
                got = link.receive().contains { if case .predictedTargetProb = $0 { return true } else { return false } }
            }
            guard got else { throw BridgeBenchmarkError.lost("round-trip reply \(i)") }
            return MonotonicClock.nanoseconds()
        }

        // Throughput: a burst as fast as the engine thread can send while
        // fewer than `inFlight` messages are on their way, so that neither
        // the link's queue nor the socket's high-water mark overflows (past
        // them frames are dropped, by design: the engine never waits).
        decoder.setMode(.count)
        let before = link.statistics
        let start = MonotonicClock.nanoseconds()
        let inFlight = min(link.outboundCapacity, Int(ZeroMQDecoderLink.sendHighWaterMark)) / 2
        for i in 0..<burst {
            if i % 256 == 0 { while i - decoder.count > inFlight { sched_yield() } }
            link.send(stimulus(Int32(i)))
        }
        // Done when every message is delivered or counted unsent by the link
        // (its queue full, or the socket's high-water mark reached).
        let end = decoder.waitForCount(timeoutNanoseconds: 30_000_000_000) { delivered in
            delivered + (link.statistics.unsent - before.unsent) >= burst
        }
        let after = link.statistics
        let delivered = decoder.count
        let seconds = Double((end ?? MonotonicClock.nanoseconds()) &- start) / 1e9

        // The floor: bare libzmq ping-pong, same frames, same decoder thread.
        decoder.setMode(.reply)
        let dealer = try ZeroMQSocket(type: .dealer)
        defer { dealer.close() }
        try dealer.connect(endpoint)
        let frame = UtopiaCodec.encode(stimulus(0))
        _ = try dealer.send(frame)
        _ = try dealer.receive()
        let bare = try latencies { _, _ in
            _ = try dealer.send(frame)
            _ = try dealer.receive()
            return MonotonicClock.nanoseconds()
        }
        return BridgeBenchmarkResult(
            objects: objects, samples: samples, oneWay: oneWay, roundTrip: roundTrip, bareRoundTrip: bare,
            burst: burst, delivered: delivered, unsent: after.unsent - before.unsent,
            messagesPerSecond: Double(delivered) / seconds)
    }

    /// `samples` timed exchanges, one at a time: `exchange(i, sent)` runs
    /// the `i`th from the clock reading `sent` and returns the reading at
    /// its end; the summary of the differences.
    private func latencies(_ exchange: (Int, UInt64) throws -> UInt64) rethrows -> LatencySummary {
        var values: [UInt64] = []
        values.reserveCapacity(samples)
        for i in 0..<samples {
            let sent = MonotonicClock.nanoseconds()
            values.append(try exchange(i, sent) &- sent)
        }
        return LatencySummary(values)
    }

    private func stimulus(_ stamp: Int32) -> UtopiaMessage {
        .stimulusEvent(StimulusEvent(timestamp: stamp, objIDs: (1...objects).map { UInt8($0) },
                                     objStates: (0..<objects).map { UInt8($0 & 1) }))
    }

    private func waitForConnection(_ link: ZeroMQDecoderLink, _ decoder: BenchDecoder) throws {
        decoder.setMode(.count)
        let deadline = MonotonicClock.nanoseconds() &+ 5_000_000_000
        while decoder.count == 0 {
            guard MonotonicClock.nanoseconds() < deadline else { throw BridgeBenchmarkError.lost("connection to \(link.endpoint)") }
            link.send(.heartbeat(Heartbeat(timestamp: 0)))
            usleep(2_000)
        }
        usleep(50_000)
    }
}

/// Why the bridge benchmark could not finish.
enum BridgeBenchmarkError: Error, CustomStringConvertible {
    case lost(String)
    var description: String {
        switch self {
        case .lost(let what): return "bench bridge: \(what) did not arrive within the time limit"
        }
    }
}
