import Foundation
import UtopiaProtocol
import ZeroMQTransport

/// Runs a ``RecordingPlayback`` against a decoder over a ZeroMQ DEALER
/// socket, as one client that is both the acquisition client and the
/// engine: SUBSCRIBE (`PTMHL`) and HEARTBEAT until the decoder answers,
/// a HEARTBEAT every second after, the playback's messages as they fall
/// due, the decoder's messages to the playback. Every wait is bounded: no
/// answer within `connectTimeout` is ``PlaybackError/noDecoder(endpoint:seconds:)``,
/// nothing heard for `silenceTimeout` once connected (the decoder sends a
/// heartbeat every second) is ``PlaybackError/decoderGone(endpoint:seconds:)``.
/// The socket is closed however it ends.
public enum RecordingPlayer {
    /// Plays `playback` into the decoder at `endpoint` (resolved: `ipc://`,
    /// `tcp://`, or `inproc://` with the decoder's `context`); `progress`
    /// hears the decoder's calibration lines and each prediction trial's
    /// outcome as they come. Returns the report. Once `stopRequested` says
    /// so (a signal), the decoder is sent a RESET, so that it forgets this
    /// stream's calibration, and ``PlaybackError/interrupted`` is thrown.
    public static func run(_ playback: inout RecordingPlayback, endpoint: String, context: ZeroMQContext? = nil,
                           connectTimeout: Double = 5, silenceTimeout: Double = 3,
                           progress: ((String) -> Void)? = nil, stopRequested: () -> Bool = { false }) throws(PlaybackError) -> PlaybackReport {
        let own = context == nil ? ZeroMQContext() : nil
        guard let context = context ?? own else { throw .socket("no ZeroMQ context") }
        let socket: ZeroMQSocket
        do {
            socket = try ZeroMQSocket(context: context, type: .dealer)
            try socket.set(.immediate(true))          // nothing queues for a decoder that is not there
            try socket.set(.reconnectInterval(milliseconds: 100))
            try socket.set(.sendHighWaterMark(100_000))
            try socket.set(.receiveHighWaterMark(100_000))
            try socket.connect(endpoint)
        } catch {
            throw .socket("cannot connect to the decoder at \(endpoint): \(error)")
        }
        defer {
            socket.close()
            own?.terminate()
        }
        var link = Link(socket: socket)
        // Handshake: SUBSCRIBE and HEARTBEAT until the decoder answers.
        let started = MonotonicClock.milliseconds()
        var lastHello = -Double.infinity
        var heard: [UtopiaMessage] = []
        while heard.isEmpty {
            let now = MonotonicClock.milliseconds()
            if now - started > connectTimeout * 1000 { throw .noDecoder(endpoint: endpoint, seconds: connectTimeout) }
            if now - lastHello >= 250 {
                lastHello = now
                link.clear()
                link.queue(hello(now))
            }
            try link.flush()
            heard = try link.receive()
            if heard.isEmpty { usleep(5_000) }
        }
        var now = MonotonicClock.milliseconds()
        var lastHeard = now
        var lastBeat = now
        link.queue(playback.start(now: now))
        do throws(PlaybackError) {
            while true {
                now = MonotonicClock.milliseconds()
                for message in heard { try playback.hear(message, now: now) }
                if !heard.isEmpty { lastHeard = now }
                if now - lastHeard > silenceTimeout * 1000 { throw .decoderGone(endpoint: endpoint, seconds: silenceTimeout) }
                if now - lastBeat >= 1000 {
                    lastBeat = now
                    link.queue([.heartbeat(Heartbeat(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), stateMessage: "decoder stream"))])
                }
                link.queue(try playback.advance(now: now))
                for line in playback.takeProgress() { progress?(line) }
                try link.flush()
                if playback.isFinished, link.pending.isEmpty { break }
                if stopRequested() {
                    // The decoder forgets this stream's trials, so that the next client's calibration is its own.
                    link.queue([.reset(Reset(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now)))])
                    let end = MonotonicClock.milliseconds() + 250
                    while !link.pending.isEmpty, MonotonicClock.milliseconds() < end { try link.flush(); usleep(2_000) }
                    throw .interrupted
                }
                usleep(2_000)
                heard = try link.receive()
            }
        } catch .simulatedDecoder {
            throw .simulatedDecoder(endpoint: endpoint)
        }
        // The last SELECTION and mode change out, briefly.
        let end = MonotonicClock.milliseconds() + 250
        while !link.pending.isEmpty, MonotonicClock.milliseconds() < end { try link.flush(); usleep(2_000) }
        return playback.report
    }

    private static func hello(_ now: Double) -> [UtopiaMessage] {
        [.subscribe(Subscribe(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), messageIDs: "PTMHL")),
         .heartbeat(Heartbeat(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), stateMessage: "decoder stream"))]
    }

    /// The socket with the frames waiting to go out (a send that would block is tried again later, never dropped).
    private struct Link {
        let socket: ZeroMQSocket
        var pending: [[UInt8]] = []
        var sent = 0

        mutating func clear() {
            pending.removeAll()
            sent = 0
        }

        mutating func queue(_ messages: [UtopiaMessage]) {
            for message in messages {
                guard let frame = try? UtopiaCodec.encodeChecked(message) else { continue }
                pending.append(frame)
            }
        }

        mutating func flush() throws(PlaybackError) {
            while sent < pending.count {
                let ok: Bool
                do { ok = try socket.send(pending[sent], dontWait: true) } catch { throw .socket("sending to the decoder failed: \(error)") }
                guard ok else { break }
                sent += 1
            }
            if sent == pending.count || sent > 4096 {
                pending.removeFirst(sent)
                sent = 0
            }
        }

        func receive() throws(PlaybackError) -> [UtopiaMessage] {
            var messages: [UtopiaMessage] = []
            while true {
                let frame: (bytes: [UInt8], more: Bool)?
                do { frame = try socket.receive(dontWait: true) } catch { throw .socket("receiving from the decoder failed: \(error)") }
                guard let frame else { break }
                messages += (try? UtopiaCodec.decode(frame: frame.bytes)) ?? []
            }
            return messages
        }
    }
}
