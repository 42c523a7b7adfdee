import ArgumentParser
import DecoderBridge
import DecoderService
import Decoding
import Foundation
import IOThreads
import Simulation
import ZeroMQTransport
#if canImport(Glibc)
import Glibc
#endif

/// `noisetag decoder [serve]`: the live reference decoder on the bridge endpoint.
struct DecoderServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the live decoder (the default): bind the endpoint, calibrate, predict.",
        discussion: """
        Binds a ZeroMQ ROUTER on --endpoint (default: the per-user ipc:// socket the \
        engine connects to) and serves every engine and acquisition client: EEG from \
        DATAHEADER/DATAPACKET, or from the built-in simulated amplifier with --simulate. \
        Calibration trials are fitted when calibration ends; the cross-validated \
        accuracy, decoding curve and recommended certainty are sent as LOG lines and \
        printed, and each calibration is saved as a trials dataset under \
        RECORDINGS/decoder-calibrations. Runs until SIGINT or SIGTERM (exit 0).

        With --curve, clients must connect with CurveZMQ: the decoder's key pair is \
        $NOISETAG_HOME/keys/decoder.key (made on first use, mode 0600; the public key, \
        printed at start, is also in decoder.pub) and only clients whose public keys are \
        listed in $NOISETAG_HOME/keys/authorized_keys (one Z85 key per line, # comments) \
        get in. A tcp:// endpoint other machines can reach without --curve prints a warning.

        With --utopia-port, the decoder also listens for Utopia TCP clients (MindAffect's \
        presentation and acquisition clients, or an engine with --decoder utopia://HOST:PORT) \
        on --utopia-host (default 127.0.0.1): they are served exactly like ZeroMQ clients.
        """)

    @Option(help: "ZeroMQ endpoint to bind (default: the per-user ipc:// socket).")
    var endpoint: String?

    @Flag(help: "Require CurveZMQ: only clients listed in $NOISETAG_HOME/keys/authorized_keys get in.")
    var curve = false

    @Option(help: "Also listen for Utopia TCP clients on this port (as MindAffect's hub, whose port is 8400; off by default).")
    var utopiaPort: UInt16?

    @Option(help: "The address the Utopia port listens on.")
    var utopiaHost = "127.0.0.1"

    @Flag(help: "Record from the built-in simulated amplifier instead of acquisition clients.")
    var simulate = false

    @OptionGroup var subject: SimulatedSubjectOptions

    @Option(parsing: .unconditional, help: "Simulated display latency, milliseconds. (default: 40)")
    var latency: Double?

    @Option(parsing: .unconditional, help: "Simulated display jitter (standard deviation), milliseconds. (default: 0)")
    var jitter: Double?

    @Option(help: "Where the simulated user looks: target (cued target in calibration), none, or goal:ID,ID,… (those objects in successive prediction trials). (default: target)")
    var user: String?

    @Option(help: ArgumentHelp("The decoder's settings, a JSON object with any of \(DecoderServerSettings.fileKeys.joined(separator: ", ")) (the options given here win over it; a calibrationFolder there replaces RECORDINGS/decoder-calibrations).", valueName: "FILE"))
    var settings: String?

    @Option(parsing: .unconditional, help: "Seconds between predictions (default 0.1).")
    var predictionInterval: Double?

    @Option(parsing: .unconditional, help: "Mains frequency to notch, Hz (50 or 60 for mains; any above 0 and below 1000 Hz is taken). Default: found in the first seconds of the EEG (up to 10 s, or 2 s when a trial starts) and notched with its harmonics, 50 Hz where none stands out.")
    var lineFrequency: Double?

    @Option(help: "Re-reference the channels before filtering: none (as recorded, the default) or average (common average).")
    var reference: ChannelReference?

    @Flag(help: "Do not save calibrations as datasets.")
    var noSave = false

    @OptionGroup var recordings: RecordingsOption

    func validate() throws {
        let simulationOnly = subject.given + [("--latency", latency != nil), ("--jitter", jitter != nil), ("--user", user != nil)]
            .filter(\.1).map(\.0)
        if !simulate, !simulationOnly.isEmpty {
            throw ValidationError("\(simulationOnly.joined(separator: ", ")) set the simulated amplifier and user, which run with --simulate only")
        }
        guard GazeScript(argument: gaze) != nil else {
            throw ValidationError("--user must be target, none or goal:ID,ID,… with IDs 1...255, got \(gaze)")
        }
        try subject.check()
        guard (0...500).contains(displayLatency) else { throw ValidationError("--latency must be 0...500 ms") }
        guard (0...100).contains(displayJitter) else { throw ValidationError("--jitter must be 0...100 ms") }
        if let predictionInterval, !(0.01...5).contains(predictionInterval) { throw ValidationError("--prediction-interval must be 0.01...5 s") }
        if let lineFrequency, !(lineFrequency > 0 && lineFrequency < 1000) { throw ValidationError("--line-frequency \(lineFrequency): must be above 0 and below 1000 Hz") }
        if let endpoint { try EndpointOption.check(endpoint, option: "--endpoint", acceptingHub: false) }
    }

    /// Where the simulated user looks (`--user`, default target).
    private var gaze: String { user ?? "target" }
    /// The simulated display's latency and jitter, ms (defaults 40 and 0).
    private var displayLatency: Double { latency ?? 40 }
    private var displayJitter: Double { jitter ?? 0 }

    func run() throws {
        let resolved: String
        do { resolved = try DecoderEndpoint.resolve(endpoint ?? "", acceptingHub: false) } catch { throw CommandFailure("\(error)") }
        var settings = try self.settings.map { try DecoderServerSettings.load($0, for: "--settings") } ?? DecoderServerSettings()
        if let predictionInterval { settings.predictionInterval = predictionInterval }
        if let lineFrequency { settings.lineFrequency = lineFrequency }
        if let reference { settings.reference = reference }
        if noSave {
            settings.calibrationFolder = nil
        } else if settings.calibrationFolder == nil {
            settings.calibrationFolder = recordings.store.root.appendingPathComponent("decoder-calibrations", isDirectory: true)
        }
        if simulate {
            var simulation = DecoderSimulation(snr: subject.snr, seed: subject.seed, gaze: GazeScript(argument: gaze)!)
            simulation.amplifier.displayLatency = displayLatency / 1000
            simulation.amplifier.displayJitter = displayJitter / 1000
            simulation.amplifier.lineFrequency = settings.lineFrequency
            settings.simulation = simulation
        }
        let output = FileHandle.standardOutput
        let curveKeys = curve ? try loadCurveKeys(output: output) : nil
        // Before "decoder listening" is printed: a SIGTERM sent as soon as it appears stops the decoder cleanly.
        StopSignal.install()
        var utopia: TCPSocket?
        if let utopiaPort {
            do { utopia = try TCPSocket.listen(host: utopiaHost, port: utopiaPort) } catch {
                throw CommandFailure("cannot listen for Utopia clients: \(error)")
            }
        }
        let server: DecoderServer
        do {
            server = try DecoderServer(endpoint: resolved, settings: settings, curve: curveKeys,
                                       log: { line in output.writeIfOpen(Data((line + "\n").utf8)) }, utopiaListener: utopia)
        } catch {
            throw CommandFailure("cannot bind the decoder endpoint \(resolved): \(error)")
        }
        output.writeIfOpen(Data("decoder listening on \(resolved)\(curve ? " with CURVE" : "")\(simulate ? " (simulated amplifier, user \(gaze))" : "")\n".utf8))
        if let utopia {
            // --utopia-port 0: the port the system chose.
            let utopiaPort = utopia.localPort ?? utopiaPort ?? 0
            output.writeIfOpen(Data("decoder listening for Utopia clients on \(utopiaHost):\(utopiaPort)\n".utf8))
            if !["127.0.0.1", "::1", "localhost"].contains(utopiaHost) {
                FileHandle.standardError.writeIfOpen(Data("noisetag decoder: warning: the Utopia port \(utopiaHost):\(utopiaPort) is plain, unauthenticated TCP that other machines can reach\n".utf8))
            }
        }
        if curveKeys == nil, let warning = DecoderEndpoint.plainNetworkWarning(for: resolved) {
            FileHandle.standardError.writeIfOpen(Data("noisetag decoder: warning: \(warning)\n".utf8))
        }
        while !StopSignal.requested { usleep(50_000) }
        server.stop()
        let stats = server.statistics
        output.writeIfOpen(Data("decoder stopped: \(stats.received) messages received, \(stats.malformedFrames) malformed, \(stats.predictions) predictions, \(stats.calibrations) calibrations\n".utf8))
    }
}

extension DecoderServeCommand {
    /// The decoder's key pair (made on first use) and the authorized client
    /// keys from `$NOISETAG_HOME/keys`; says where they are. A bad key file
    /// is a ``CommandFailure`` naming the file and the reason.
    private func loadCurveKeys(output: FileHandle) throws -> CurveServerKeys {
        let folder = CurveKeyFolder.standard()
        do {
            let (pair, created) = try folder.loadOrCreateKeyPair(named: "decoder")
            let clients = try folder.authorizedKeys()
            output.writeIfOpen(Data("""
                decoder public key: \(pair.publicKey.z85)
                  \(created ? "new key pair written to" : "key pair from") \(folder.secretKeyFile(named: "decoder").path) \
                (public key also in \(folder.publicKeyFile(named: "decoder").lastPathComponent)); engines connect with \
                --decoder-key '\(pair.publicKey.z85)'
                authorized client keys: \(clients.count) in \(folder.authorizedKeysFile.path)\(clients.isEmpty
                    ? " (none yet: add each engine's public key, the first word of its keys/engine.pub, and restart)" : "")

                """.utf8))
            return CurveServerKeys(keyPair: pair, authorizedClients: Set(clients))
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
