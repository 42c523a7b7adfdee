import ArgumentParser
import DecoderService
import Foundation
import ZeroMQTransport
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT and SIGTERM; the decoder stops at the next check.
nonisolated(unsafe) private var decoderStopRequested: sig_atomic_t = 0

/// `noisetag decoder [serve]`: the live reference decoder on the bridge endpoint.
///
/// ```swift
/// NoisetagCommand.main(["decoder", "--simulate", "--user", "goal:3,1,4"])
/// ```
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
        """)

    @Option(help: "ZeroMQ endpoint to bind (default: the per-user ipc:// socket).")
    var endpoint: String?

    @Flag(help: "Record from the built-in simulated amplifier instead of acquisition clients.")
    var simulate = false

    @Option(help: "Simulated SNR (power ratio).")
    var snr = 0.05

    @Option(help: "Simulated subject and noise seed.")
    var seed: UInt64 = 1

    @Option(help: "Simulated display latency, milliseconds.")
    var latency = 40.0

    @Option(help: "Simulated display jitter (standard deviation), milliseconds.")
    var jitter = 0.0

    @Option(help: "Where the simulated user looks: target (cued target in calibration), none, or goal:ID,ID,… (those objects in successive prediction trials).")
    var user = "target"

    @Option(help: "Seconds between predictions.")
    var predictionInterval = 0.1

    @Option(help: "Mains frequency, Hz (50 or 60).")
    var lineFrequency = 50.0

    @Flag(help: "Do not save calibrations as datasets.")
    var noSave = false

    @OptionGroup var recordings: RecordingsOption

    func validate() throws {
        guard GazeScript(argument: user) != nil else {
            throw ValidationError("--user must be target, none or goal:ID,ID,… with IDs 1...255, got \(user)")
        }
        guard snr > 0, snr.isFinite else { throw ValidationError("--snr must be positive") }
        guard latency >= 0, latency <= 500 else { throw ValidationError("--latency must be 0...500 ms") }
        guard jitter >= 0, jitter <= 100 else { throw ValidationError("--jitter must be 0...100 ms") }
        guard predictionInterval >= 0.01, predictionInterval <= 5 else { throw ValidationError("--prediction-interval must be 0.01...5 s") }
        guard lineFrequency > 0, lineFrequency < 1000 else { throw ValidationError("--line-frequency must be positive") }
        if let endpoint, !endpoint.isEmpty, !endpoint.hasPrefix("ipc://") {
            do { _ = try DecoderEndpoint.resolve(endpoint) } catch { throw ValidationError("--endpoint: \(error)") }
            if endpoint.trimmingCharacters(in: .whitespaces).hasPrefix("utopia://") {
                throw ValidationError("--endpoint: the decoder binds a ZeroMQ endpoint (ipc://, tcp://); a utopia:// address is for engines and clients to connect to")
            }
        }
    }

    func run() throws {
        let resolved: String
        do { resolved = try DecoderEndpoint.resolve(endpoint ?? "") } catch { throw CommandFailure("\(error)") }
        var settings = DecoderServerSettings()
        settings.predictionInterval = predictionInterval
        settings.lineFrequency = lineFrequency
        if !noSave { settings.calibrationFolder = recordings.store.root.appendingPathComponent("decoder-calibrations", isDirectory: true) }
        if simulate {
            var simulation = DecoderSimulation(snr: snr, seed: seed, gaze: GazeScript(argument: user)!)
            simulation.amplifier.displayLatency = latency / 1000
            simulation.amplifier.displayJitter = jitter / 1000
            simulation.amplifier.lineFrequency = lineFrequency
            settings.simulation = simulation
        }
        let output = FileHandle.standardOutput
        let server: DecoderServer
        do {
            server = try DecoderServer(endpoint: resolved, settings: settings) { line in
                output.write(Data((line + "\n").utf8))
            }
        } catch {
            throw CommandFailure("cannot bind the decoder endpoint \(resolved): \(error)")
        }
        output.write(Data("decoder listening on \(resolved)\(simulate ? " (simulated amplifier, user \(user))" : "")\n".utf8))
        signal(SIGINT) { _ in decoderStopRequested = 1 }
        signal(SIGTERM) { _ in decoderStopRequested = 1 }
        while decoderStopRequested == 0 { usleep(50_000) }
        server.stop()
        let stats = server.statistics
        output.write(Data("decoder stopped: \(stats.received) messages received, \(stats.malformedFrames) malformed, \(stats.predictions) predictions, \(stats.calibrations) calibrations\n".utf8))
    }
}
