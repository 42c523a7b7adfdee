import ZeroMQTransport
import ArgumentParser
import DecoderBridge
import Foundation
import NoiseTagging

/// `noisetag demo`: brain buttons driven by a decoder over ZeroMQ.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run brain buttons against a decoder.",
        discussion: """
        With --headless the demo runs without a terminal: N trials on a grid of \
        labelled buttons, printing what happens (one JSON object per engine event \
        with --events-json), and exits 0 after the last trial. Everything is \
        recorded under --recordings (see noisetag recordings list); Ctrl-C ends \
        the recording properly and exits 130. A failure (no decoder answers within \
        --connect-timeout, an unreadable settings file, a socket that cannot be \
        made) prints one line naming what failed and exits 1.
        """)

    @Flag(help: "Run without a terminal display.")
    var headless = false

    @Option(help: "ZeroMQ endpoint of the decoder (default: the per-user ipc:// socket).")
    var decoder: String?

    @Option(help: "train, test or verify.")
    var mode: DemoMode = .test

    @Option(help: "Trials to run before exiting.")
    var trials = 10

    @Option(help: "Number of buttons (1...255).")
    var controls = 9

    @Flag(help: "Print every engine event as one JSON object per line.")
    var eventsJson = false

    @Option(help: "Settings file (JSON) to load first.")
    var settings: String?

    @Option(help: "Give up after this many seconds (exit 2); 0 waits for ever.")
    var maxSeconds: Double = 0

    @Option(help: "Fail (exit 1) when no decoder has answered after this many seconds; 0 waits for ever.")
    var connectTimeout: Double = 10

    @OptionGroup var recordings: RecordingsOption

    func validate() throws {
        guard trials >= 1 else { throw ValidationError("--trials must be at least 1, got \(trials)") }
        guard (1...255).contains(controls) else { throw ValidationError("--controls must be 1...255, got \(controls)") }
        guard maxSeconds >= 0, maxSeconds.isFinite else { throw ValidationError("--max-seconds must be >= 0") }
        guard connectTimeout >= 0, connectTimeout.isFinite else { throw ValidationError("--connect-timeout must be >= 0") }
        // A malformed endpoint is a wrong argument; a missing ipc:// folder is found at run time.
        if let decoder, !decoder.isEmpty, !decoder.hasPrefix("ipc://") {
            do { _ = try DecoderEndpoint.resolve(decoder) } catch { throw ValidationError("--decoder: \(error)") }
        }
        guard headless else {
            throw ValidationError("the terminal display is not built yet; run with --headless")
        }
    }

    func run() throws {
        let engineSettings = NoiseTagSettings()
        if let path = settings {
            do { try engineSettings.load(from: URL(fileURLWithPath: path)) } catch {
                throw CommandFailure("\(error)")
            }
        }
        let endpoint: String
        do { endpoint = try DecoderEndpoint.resolve(decoder ?? engineSettings.textFor(.decoderEndpoint)) } catch {
            throw CommandFailure("\(error)")
        }
        let link: ZeroMQDecoderLink
        do { link = try ZeroMQDecoderLink(endpoint: endpoint, settings: engineSettings) } catch {
            throw CommandFailure("cannot connect to the decoder at \(endpoint): \(error)")
        }
        defer { link.close() }
        let runner = HeadlessRunner(settings: engineSettings, link: link, mode: mode.engineMode,
                                    trials: trials, controls: controls, eventsJSON: eventsJson,
                                    maxSeconds: maxSeconds, connectTimeout: connectTimeout,
                                    recordings: recordings.store)
        switch runner.run() {
        case .finished: return
        case .timedOut: throw ExitCode(2)
        case .interrupted: throw ExitCode(130)
        case .noDecoder:
            throw CommandFailure("no decoder answered at \(endpoint) within --connect-timeout \(connectTimeout) s")
        }
    }
}

/// The demo's `--mode` choices.
enum DemoMode: String, ExpressibleByArgument, CaseIterable {
    case train, test, verify

    var engineMode: NoiseTagMode {
        switch self {
        case .train: return .trainGeneric
        case .test: return .test
        case .verify: return .verify
        }
    }
}
