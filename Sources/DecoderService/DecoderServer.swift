import Decoding
import Foundation
import IOThreads
import Synchronization
import UtopiaProtocol
import ZeroMQTransport

/// The live reference decoder on the bridge: binds a ZeroMQ ROUTER on an
/// endpoint and serves every engine and acquisition client that connects
/// (`Protocols/decoder-bridge.md`). One thread owns the socket; ``stop()``
/// reaches it through an eventfd polled in the same `zmq_poll`. It answers
/// each new peer with a HEARTBEAT, sends heartbeats every second, honours
/// each peer's SUBSCRIBE, forgets silent peers, confirms modes, and runs a
/// ``LiveDecoder`` on what arrives. The same type runs in its own process
/// (`noisetag decoder`) or on a thread of another program (`inproc://` with
/// the same ``ZeroMQContext``, or `ipc://`).
///
/// ```swift
/// var settings = DecoderServerSettings()
/// settings.simulation = DecoderSimulation(snr: 0.05, seed: 1, gaze: .target)
/// let server = try DecoderServer(endpoint: "ipc:///tmp/noisetag-1000/decoder.sock", settings: settings) { line in
///     print(line)
/// }
/// // … engines connect, calibrate, predict …
/// server.stop()
/// ```
// @unchecked: the socket is the decoder thread's alone after init (in `loop`); shared state is in `loop.state`.
public final class DecoderServer: @unchecked Sendable {
    /// The endpoint bound.
    public let endpoint: String
    /// The settings it runs with.
    public let settings: DecoderServerSettings
    private let wake: EventFD
    /// The ZAP domain checking CURVE clients; cancelled once the socket is closed.
    private let authentication: ZAPAuthenticator.Registration?
    /// What the decoder's thread runs and owns; the thread holds it, not the server.
    private let loop: DecoderServerLoop
    private let thread: IOThread

    /// How often the decoder's thread publishes ``signalSnapshot``, ms.
    static let snapshotInterval = 100.0
    /// How much EEG each published ``signalSnapshot`` holds, s.
    static let snapshotSeconds = 5.0
    /// Milliseconds a pass of the loop spends at most on queued input
    /// before it advances the decoder and sends what is due.
    static let drainBudget = 50.0

    /// Binds `endpoint` and starts the decoder's thread. `log` hears every
    /// LOG line the decoder sends (on the decoder's thread). With
    /// `inputSink`, the decoder records its inputs
    /// (``LiveDecoder/takeInputRecords()``) and the sink gets them, in the
    /// order consumed, in one batch per turn of the decoder's loop that had
    /// any (on the decoder's thread, every 10 ms or so: hand them on, do not
    /// block). With `curve` (a `tcp://` or `ipc://` endpoint) only CurveZMQ
    /// clients whose public keys it lists get in; the others are refused
    /// during the handshake and `log` hears each refused key (at most once a
    /// minute, on the ZAP handler's thread). Throws when the socket cannot
    /// be made or bound, when another decoder listens on the same `ipc://`
    /// socket (EADDRINUSE), or when this libzmq has no CURVE.
    ///
    /// ```swift
    /// let server = try DecoderServer(endpoint: "inproc://decoder", context: context)
    /// let recorded = Mutex<[DecoderInputRecord]>([])
    /// let tapped = try DecoderServer(endpoint: "inproc://tapped", context: context,
    ///                                inputSink: { records in recorded.withLock { $0 += records } })
    /// let keys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: [engineKey])
    /// let secured = try DecoderServer(endpoint: "tcp://*:5555", curve: keys) { line in print(line) }
    /// ```
    public init(endpoint: String, settings: DecoderServerSettings = DecoderServerSettings(),
                context: ZeroMQContext = .shared, curve: CurveServerKeys? = nil, log: (@Sendable (String) -> Void)? = nil,
                inputSink: (@Sendable ([DecoderInputRecord]) -> Void)? = nil,
                utopiaListener: TCPSocket? = nil) throws(ZeroMQError) {
        self.endpoint = endpoint
        self.settings = settings
        let socket = try ZeroMQSocket(context: context, type: .router)
        try socket.set(.sendHighWaterMark(10_000))
        try socket.set(.receiveHighWaterMark(100_000))
        let wake = try EventFD()
        self.wake = wake
        if let why = DecoderEndpoint.notASocket(endpoint) {
            throw ZeroMQError(call: "zmq_bind", endpoint: endpoint, code: EEXIST, explanation: why)
        }
        if DecoderEndpoint.isListening(endpoint) {
            throw ZeroMQError(call: "zmq_bind", endpoint: endpoint, code: EADDRINUSE)     // another decoder serves it
        }
        if let curve {
            authentication = try Self.secure(socket, with: curve, endpoint: endpoint, context: context, log: log)
        } else {
            authentication = nil
        }
        try socket.bind(endpoint)
        let loop = DecoderServerLoop(settings: settings, socket: socket, wake: wake, log: log, utopiaListener: utopiaListener,
                                     inputSink: inputSink)
        self.loop = loop
        loop.state.withLock { $0.running = true }
        thread = IOThread(name: "nt-decoder") { loop.run() }
    }

    deinit { stop() }

    /// Stops the thread and closes the socket, after any fit still running
    /// has ended (an exit during a fit crashed inside BLAS); later calls do nothing.
    public func stop() {
        let wasRunning = loop.state.withLock { state in
            defer { state.stopping = true }
            return state.running && !state.stopping
        }
        guard wasRunning else { return }
        wake.signal()
        thread.join()
        loop.fits.wait()
        authentication?.cancel()
    }

    /// A snapshot of the counters.
    public var statistics: DecoderServerStatistics { loop.state.withLock { $0.statistics } }

    /// The last 5 s of raw EEG the decoder received, with each channel's
    /// latest signal quality as a noise-to-signal ratio (see
    /// ``LiveDecoder/signalSnapshot(seconds:)``): what a signal view draws.
    /// The decoder's thread publishes a fresh copy every 100 ms; any thread
    /// may read it. ``SignalSnapshot/empty`` until EEG arrives.
    ///
    /// ```swift
    /// var settings = DecoderServerSettings()
    /// settings.simulation = DecoderSimulation(snr: 0.05, seed: 1, gaze: .target)
    /// let server = try DecoderServer(endpoint: "inproc://decoder", settings: settings, context: context)
    /// let scene = SignalViewScene(snapshot: { server.signalSnapshot })
    /// let code = runner.run(scene)
    /// server.stop()
    /// ```
    public var signalSnapshot: SignalSnapshot { loop.state.withLock { $0.signalSnapshot } }

    /// Fits a model on `dataset` (a calibration saved earlier: a study
    /// session resumed after its calibration step) as if its trials had just
    /// been collected: on a worker thread, adopted by the decoder's thread,
    /// which then sends its LOG lines, CALIBRATIONRESULT and CERTAINTYTHRESHOLD
    /// to every peer.
    /// The dataset is not saved again.
    public func fit(_ dataset: TrialsDataset) {
        var settings = self.settings
        settings.calibrationFolder = nil
        loop.startFit(CalibrationJob(dataset: dataset, settings: settings))
    }
}

/// Shared between the server and its decoder's thread.
private struct DecoderServerState {
    var statistics = DecoderServerStatistics()
    var signalSnapshot = SignalSnapshot.empty
    var running = false        // set once the thread starts: an init that throws has nothing to stop
    var stopping = false
}

/// The decoder's thread: it owns the ROUTER socket, the Utopia TCP clients
/// and the ``LiveDecoder``, and holds none of the server, so a server
/// released without ``DecoderServer/stop()`` stops from `deinit`.
// @unchecked: `socket` is not Sendable, but only the decoder's thread touches it; shared state is in `state`.
private final class DecoderServerLoop: @unchecked Sendable {
    let settings: DecoderServerSettings
    let socket: ZeroMQSocket
    let wake: EventFD
    let log: (@Sendable (String) -> Void)?
    /// The listener for Utopia TCP clients, handed to the decoder's thread at start.
    let utopiaListener: TCPSocket?
    let inputSink: (@Sendable ([DecoderInputRecord]) -> Void)?
    let state = Mutex(DecoderServerState())
    let mailbox = FitMailbox()
    /// The fits running on worker threads: ``DecoderServer/stop()`` waits for
    /// them, so that none is still inside BLAS when the process exits.
    let fits = DispatchGroup()

    init(settings: DecoderServerSettings, socket: ZeroMQSocket, wake: EventFD, log: (@Sendable (String) -> Void)?,
         utopiaListener: TCPSocket?, inputSink: (@Sendable ([DecoderInputRecord]) -> Void)?) {
        self.settings = settings
        self.socket = socket
        self.wake = wake
        self.log = log
        self.utopiaListener = utopiaListener
        self.inputSink = inputSink
    }

    /// Fits on a worker thread so that heartbeats, predictions and signal
    /// quality go on meanwhile; the outcome comes back through `state` and a wake-up.
    func startFit(_ job: CalibrationJob) {
        fits.enter()
        let thread = Thread { [mailbox, wake, fits] in
            IOThread.nameCurrentThread("nt-decoder-fit")
            mailbox.post(job.run())
            wake.signal()
            fits.leave()
        }
        thread.start()
    }

    // MARK: The decoder's thread

    func run() {
        var decoder = LiveDecoder(settings: settings, now: MonotonicClock.milliseconds(), recordingInput: inputSink != nil)
        var peers = PeerTable()
        var counters = DecoderServerStatistics()
        var lastMalformedLog = -Double.infinity
        var lastSnapshotAt = -Double.infinity
        var malformedSinceLog = 0
        let base: [ZeroMQPoll.Item] = [.socket(socket), .descriptor(wake.descriptor)]
        var tcp = utopiaListener.map(UtopiaClients.init(listener:))

        func send(_ frame: [UInt8], to identity: [UInt8]) {
            let ok: Bool
            if UtopiaClients.isClient(identity) {
                ok = tcp?.queue(frame, to: identity) ?? false
                if !ok { peers.forget(identity) }
            } else {
                ok = (try? socket.send(identity, more: true, dontWait: true)) == true
                    && (try? socket.send(frame, dontWait: true)) == true
            }
            if ok { counters.sent += 1 } else { counters.unsent += 1 }
        }
        func broadcast(_ messages: [UtopiaMessage]) {
            for message in messages {
                if case .log(let line) = message { log?(line.message) }
                let frame = UtopiaCodec.encode(message)
                for identity in peers.peers.keys where peers.wants(identity, message.messageID) { send(frame, to: identity) }
            }
        }
        func serverLog(_ text: String, now: Double) {
            broadcast([.log(Log(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), message: "decoder: " + text))])
        }

        func malformed(_ count: Int, _ error: UtopiaDecodingError, what: String, now: Double) {
            counters.malformedFrames += 1
            malformedSinceLog += 1
            if now - lastMalformedLog >= 1000 {
                serverLog("malformed \(what) of \(count) bytes dropped: \(error)"
                          + (malformedSinceLog > 1 ? " (\(malformedSinceLog) since the last report)" : ""), now: now)
                lastMalformedLog = now
                malformedSinceLog = 0
            }
        }
        func heard(_ identity: [UInt8], now: Double) {
            if peers.heard(from: identity, at: now) {
                send(UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), stateMessage: "decoder ready"))),
                     to: identity)
            }
        }
        func handle(_ message: UtopiaMessage, from identity: [UInt8], now: Double) {
            counters.received += 1
            if case .subscribe(let subscription) = message {
                peers.subscribe(identity, to: subscription.messageIDs)
                for reply in decoder.greeting(now: now) where peers.wants(identity, reply.messageID) {
                    send(UtopiaCodec.encode(reply), to: identity)
                }
            }
            broadcast(decoder.receive(message, now: now))
        }

        while !state.withLock({ $0.stopping }) {
            let (extra, order) = tcp?.pollItems() ?? ([], [])
            let ready = ZeroMQPoll.wait(base + extra, milliseconds: 10)
            if ready[1].readable { wake.drain() }
            var now = MonotonicClock.milliseconds()
            // Utopia TCP clients: new connections, then what each sent (the decoder's replies queue on `tcp`).
            if tcp != nil, ready[2].readable {
                for identity in tcp!.accept() { heard(identity, now: now) }
            }
            for (k, identity) in order.enumerated() where ready[3 + k].readable || ready[3 + k].failed {
                guard let (received, closed) = tcp?.read(identity) else { continue }
                if !received.isEmpty, closed == nil { heard(identity, now: now) }
                for item in received {
                    switch item {
                    case .message(let message, _): handle(message, from: identity, now: now)
                    case .rejected(let bytes, let error): malformed(bytes.count, error, what: "message from a Utopia client", now: now)
                    case .lost: break
                    }
                }
                if let closed {
                    peers.forget(identity)
                    if closed.hasPrefix("its stream") { serverLog("Utopia client dropped: \(closed)", now: now) }
                }
            }
            // What has queued up, for one drain budget at most: a flood of input must not
            // hold off the heartbeats, predictions and fits that follow each pass.
            let drainStart = MonotonicClock.milliseconds()
            while MonotonicClock.milliseconds() - drainStart < DecoderServer.drainBudget,
                  let first = try? socket.receive(dontWait: true) {
                let identity = first.bytes
                var frames: [[UInt8]] = []
                var more = first.more
                while more, let part = try? socket.receive(dontWait: true) {
                    if !part.bytes.isEmpty { frames.append(part.bytes) }
                    more = part.more
                }
                now = MonotonicClock.milliseconds()
                heard(identity, now: now)
                for frame in frames {
                    switch UtopiaCodec.decodeResult(frame: frame) {
                    case .failure(let error): malformed(frame.count, error, what: "frame", now: now)
                    case .success(let messages):
                        for message in messages { handle(message, from: identity, now: now) }
                    }
                }
            }
            now = MonotonicClock.milliseconds()
            broadcast(decoder.advance(now: now))
            if let job = decoder.takeCalibrationJob() { startFit(job) }
            for outcome in mailbox.take() {
                broadcast(decoder.adopt(outcome, now: MonotonicClock.milliseconds()))
            }
            if let inputSink {
                let records = decoder.takeInputRecords()
                if !records.isEmpty { inputSink(records) }
            }
            let beat = UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), stateMessage: "decoder \(decoder.mode.rawValue)")))
            for identity in peers.dueHeartbeats(at: now, interval: settings.heartbeatInterval * 1000) { send(beat, to: identity) }
            // A TCP client stays while its connection does, once it has spoken; one that never did is dropped.
            let silent = peers.forgetSilent(at: now, timeout: settings.peerTimeout * 1000) { tcp?.hasSpoken($0) == true }
            for identity in silent where UtopiaClients.isClient(identity) { tcp?.close(identity) }
            for (identity, _) in tcp?.flush() ?? [] { peers.forget(identity) }
            counters.peers = peers.peers.count
            counters.predictions = decoder.predictionsSent
            counters.calibrations = decoder.calibrationsFitted
            counters.mode = decoder.mode
            counters.recommendedCertainty = decoder.model?.recommendedCertainty
            var snapshot: SignalSnapshot?
            if now - lastSnapshotAt >= DecoderServer.snapshotInterval {
                lastSnapshotAt = now
                snapshot = decoder.signalSnapshot(seconds: DecoderServer.snapshotSeconds)
            }
            state.withLock { state in
                state.statistics = counters
                if let snapshot { state.signalSnapshot = snapshot }
            }
        }
        socket.close()
        tcp?.closeAll()
        // A fit still running finishes on its own thread; its outcome is dropped.
        state.withLock { $0.running = false }
    }
}
