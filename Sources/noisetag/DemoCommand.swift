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
        the recording properly and exits 130.
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

    @OptionGroup var recordings: RecordingsOption

    func validate() throws {
        guard trials >= 1 else { throw ValidationError("--trials must be at least 1, got \(trials)") }
        guard (1...255).contains(controls) else { throw ValidationError("--controls must be 1...255, got \(controls)") }
        guard maxSeconds >= 0, maxSeconds.isFinite else { throw ValidationError("--max-seconds must be >= 0") }
        guard headless else {
            throw ValidationError("the terminal display is not built yet; run with --headless")
        }
    }

    func run() throws {
        let engineSettings = NoiseTagSettings()
        if let path = settings {
            do { try engineSettings.load(from: URL(fileURLWithPath: path)) } catch {
                throw ValidationError("\(error)")
            }
        }
        let endpoint: String
        do { endpoint = try DecoderEndpoint.resolve(decoder ?? engineSettings.textFor(.decoderEndpoint)) } catch {
            throw ValidationError("\(error)")
        }
        let link: ZeroMQDecoderLink
        do { link = try ZeroMQDecoderLink(endpoint: endpoint, settings: engineSettings) } catch {
            throw ValidationError("cannot connect to the decoder: \(error)")
        }
        defer { link.close() }
        let runner = HeadlessRunner(settings: engineSettings, link: link, mode: mode.engineMode,
                                    trials: trials, controls: controls, eventsJSON: eventsJson,
                                    maxSeconds: maxSeconds, recordings: recordings.store)
        switch runner.run() {
        case .finished: return
        case .timedOut: throw ExitCode(2)
        case .interrupted: throw ExitCode(130)
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
