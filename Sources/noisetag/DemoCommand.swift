import ArgumentParser
import DecoderBridge
import DecoderService
import Demo
import Foundation
import IOThreads
import NoiseTagging
import TerminalUI
import ZeroMQTransport

/// `noisetag demo`: type by brain on a keyboard of flickering buttons,
/// full-screen in the terminal or headless.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Check the signal, calibrate, then type by brain (full-screen terminal, or --headless).",
        discussion: """
        With no flags the reference decoder runs inside this process with its simulated \
        amplifier and a simulated user, and the demo walks through a signal check, \
        calibration (nGenericTrainTrials cued trials), the decoder's accuracy and \
        recommended threshold, then Test: the user spells --goal on a keyboard and confirms \
        it on a popup. --user none keeps the embedded decoder but simulates nobody: it \
        listens on the per-user ipc:// socket for an acquisition client (a real amplifier \
        streamer, Examples/acquisition_streamer.py). --decoder ENDPOINT uses an external \
        decoder instead; with --decoder-key KEY (the decoder's public key, as \
        noisetag decoder --curve prints it) the engine talks CurveZMQ with its key pair in \
        $NOISETAG_HOME/keys/engine.key (made on first use; the decoder must list its \
        public key, printed at start, in its authorized_keys). Keys: space trials on/off, A-Z _ Backspace press a key by touch, \
        Y/N answer the popup, Enter skips a wait, s signal view, d developer panel, \
        r recalibrate, q quit.

        With --headless the same walk-through runs without a terminal in real time and \
        prints a summary; it exits 0 when at least 90 % of the brain presses hit the key \
        the simulated user looked at, 1 otherwise, 2 after --max-seconds. \
        --headless with --decoder, --trials, --controls or --mode instead runs scripted \
        trials: --trials (10) trials on a grid of --controls (9) buttons in --mode (test) \
        against --decoder or the decoderEndpoint setting (one JSON object per engine event \
        with --events-json), and exits 0 after the last trial. Everything is recorded under \
        --recordings; Ctrl-C ends the recording properly and exits 130. A failure prints \
        one line naming what failed and exits 1.
        """)

    @Flag(help: "Run without a terminal display.")
    var headless = false

    @Option(help: "Endpoint of an external decoder: ZeroMQ (ipc://, tcp://) or a Utopia hub (utopia://HOST:PORT) (default: the reference decoder inside this process).")
    var decoder: String?

    // A Z85 key may begin with "-", which would read as an option: NoisetagCommand.main joins it to --decoder-key.
    @Option(help: ArgumentHelp("With --decoder: the decoder's CurveZMQ public key (Z85, or a file holding it, such as a copy of its decoder.pub).",
                               valueName: "KEY"))
    var decoderKey: String?

    @Option(help: "With the embedded decoder: simulated (a simulated amplifier and user) or none (an acquisition client streams EEG).")
    var user: DemoUser = .simulated

    @Option(help: "Text to spell (letters and spaces). (default: HELLO WORLD)")
    var goal: String?

    @OptionGroup var subject: SimulatedSubjectOptions

    @Flag(help: "Type from the first trial without calibration: ZeroTrain mode, the embedded decoder learning while the user types.")
    var zeroTrain = false

    @Option(parsing: .unconditional, help: "Seconds of signal check before calibration. (default: 6)")
    var signalCheck: Double?

    @Option(parsing: .unconditional, help: "Calibration trials, 5...1000 (sets nGenericTrainTrials).")
    var calibrationTrials: Int?

    @Option(help: "Scripted trials (headless): train, test or verify (default test). train calibrates for nGenericTrainTrials (10), then switches to test, which ends the calibration and starts the decoder's fit: give more --trials than that to see its result.")
    var mode: DemoMode?

    @Option(parsing: .unconditional, help: "Scripted trials (headless): trials to run before exiting (default 10).")
    var trials: Int?

    @Option(parsing: .unconditional, help: "Scripted trials (headless): number of buttons, 1...255 (default 9), at most the codebook's codes (65 built in; more: filenameNoiseTags in --settings).")
    var controls: Int?

    @Flag(help: "Print every engine event as one JSON object per line, as a subscriber gets them (the app's own calls are left out: the recording's events.jsonl has them).")
    var eventsJson = false

    @Option(help: "Settings file (JSON) to load first.")
    var settings: String?

    @Option(help: ArgumentHelp("The embedded decoder's settings (JSON, as noisetag decoder --settings reads them), e.g. {\"idlePressesPerMinute\": 1} for sooner presses.", valueName: "FILE"))
    var decoderSettings: String?

    @OptionGroup var limit: MaxSecondsOption

    @Option(parsing: .unconditional, help: "Fail (exit 1) when no decoder has answered after this many seconds, or when scripted trials' decoder, once connected, stays lost this long; 0 waits for ever.")
    var connectTimeout: Double = 10

    @OptionGroup var recordings: RecordingsOption

    func validate() throws {
        if let trials, trials < 1 { throw ValidationError("--trials must be at least 1, got \(trials)") }
        if let controls, !(1...255).contains(controls) { throw ValidationError("--controls must be 1...255, got \(controls)") }
        if !headless, trials != nil || controls != nil || mode != nil {
            throw ValidationError("--trials, --controls and --mode run scripted trials, which need --headless")
        }
        try limit.check()
        guard connectTimeout >= 0, connectTimeout.isFinite else { throw ValidationError("--connect-timeout must be >= 0") }
        // A malformed endpoint is a wrong argument; a missing ipc:// folder is found at run time.
        if let decoder { try EndpointOption.check(decoder, option: "--decoder") }
        if let problem = DemoOptions.problem(withGoal: spelled) { throw ValidationError("--goal: \(problem)") }
        if decoderSettings != nil, headless && scriptedTrials || decoder != nil {
            throw ValidationError("--decoder-settings sets the embedded decoder of the walk-through; an external decoder (--decoder, or scripted trials) reads its own")
        }
        try subject.check()
        if !subject.given.isEmpty, decoder != nil || user == .none || headless && scriptedTrials {
            throw ValidationError("\(subject.given.joined(separator: ", ")) set the simulated user of the embedded decoder's walk-through, which --decoder, --user none and scripted trials run without")
        }
        guard (0...600).contains(signalCheck ?? 6) else { throw ValidationError("--signal-check must be 0...600 s") }
        if headless, scriptedTrials, goal != nil || signalCheck != nil {
            let given = [goal.map { _ in "--goal" }, signalCheck.map { _ in "--signal-check" }].compactMap { $0 }
            throw ValidationError("\(given.joined(separator: " and ")) set the walk-through; --trials, --controls, --mode and --decoder run scripted trials without one")
        }
        if let calibrationTrials, !(5...1000).contains(calibrationTrials) {
            throw ValidationError("--calibration-trials must be 5...1000 (the decoder cross-validates in 5 folds), got \(calibrationTrials)")
        }
        if let decoderKey {
            guard decoder != nil else { throw ValidationError("--decoder-key needs --decoder ENDPOINT: the embedded decoder runs in this process") }
            if decoderKey.count == CurveKey.z85Count {
                do { _ = try CurveKey(z85: decoderKey) } catch { throw ValidationError("--decoder-key: \(error)") }
            } else if !FileManager.default.fileExists(atPath: decoderKey) {
                throw ValidationError("--decoder-key: '\(decoderKey)' is neither a key (\(CurveKey.z85Count) characters of Z85) nor a file")
            }
        }
        if zeroTrain, scriptedTrials {
            throw ValidationError("--zero-train runs the walk-through; --trials, --controls, --mode and --decoder run scripted trials")
        }
        if decoder != nil, user == .none {
            throw ValidationError("--user none runs the embedded decoder; it cannot be combined with --decoder")
        }
    }

    func run() throws {
        let engineSettings = NoiseTagSettings()
        if let path = settings {
            do { try engineSettings.load(from: URL(fileURLWithPath: path)) } catch {
                throw CommandFailure("\(error)")
            }
        }
        if let calibrationTrials {
            do { try engineSettings.set(value: calibrationTrials, for: .nGenericTrainTrials) } catch { throw CommandFailure("\(error)") }
        }
        guard headless && scriptedTrials else { return try runScenario(settings: engineSettings) }
        let endpoint: String
        do { endpoint = try DecoderEndpoint.resolve(decoder ?? engineSettings.textFor(.decoderEndpoint)) } catch {
            throw CommandFailure("\(error)")
        }
        // Said before any decoder is waited for: a button without a code of its own can never flicker.
        let book = engineSettings.textFor(.filenameNoiseTags)
        if let codes = (try? NoiseTagSettings.codebook(named: book))?.count, (controls ?? 9) > codes {
            throw CommandFailure("--controls \(controls ?? 9): the codebook \(book.isEmpty ? "built in" : book) has \(codes) codes, one a button (a larger one: filenameNoiseTags in --settings)")
        }
        let curveKeys = try engineCurveKeys()
        let link: any BridgeLink
        do { link = try BridgeLinks.connect(endpoint: endpoint, settings: engineSettings, curve: curveKeys) } catch {
            throw CommandFailure("\(error)")
        }
        defer { link.close() }
        let runner = HeadlessRunner(settings: engineSettings, link: link, mode: (mode ?? .test).engineMode,
                                    trials: trials ?? 10, controls: controls ?? 9, eventsJSON: eventsJson,
                                    maxSeconds: limit.maxSeconds, connectTimeout: connectTimeout,
                                    recordings: recordings.store)
        switch runner.run() {
        case .finished: return
        case .timedOut: throw ExitCode(2)
        case .interrupted: throw ExitCode(130)
        case .noDecoder:
            let hint = curveKeys.map {
                " (CURVE: check --decoder-key, and that the decoder's authorized_keys lists this engine's public key \($0.keyPair.publicKey.z85))"
            } ?? ""
            throw CommandFailure("no decoder answered at \(endpoint) within --connect-timeout \(connectTimeout) s\(hint)")
        case .refused(let reason):
            throw CommandFailure("no trial can start on \(controls ?? 9) buttons: \(reason)")
        case .decoderLost(let ended):
            throw CommandFailure("the decoder at \(endpoint) was lost after \(ended) of \(trials ?? 10) trials and did not come back within --connect-timeout \(connectTimeout) s (the recording ends here)")
        }
    }
}

extension DemoCommand {
    /// The text the walk-through spells (`--goal`, default HELLO WORLD).
    private var spelled: String { goal ?? "HELLO WORLD" }

    /// Headless with `--decoder`, `--trials`, `--controls` or `--mode`: scripted
    /// trials on a grid against a decoder (the endpoint from `--decoder` or the
    /// `decoderEndpoint` setting) instead of the walk-through.
    private var scriptedTrials: Bool { decoder != nil || trials != nil || controls != nil || mode != nil }

    /// The walk-through (terminal or headless) on a ``DemoSession``.
    private func runScenario(settings engineSettings: NoiseTagSettings) throws {
        var options = DemoOptions()
        options.goal = spelled.uppercased()
        options.externalDecoder = decoder
        options.externalDecoderCurve = try engineCurveKeys()
        options.simulatedUser = user == .simulated
        options.snr = subject.snr
        options.seed = subject.seed
        options.signalCheckSeconds = signalCheck ?? 6
        options.zeroTrain = zeroTrain
        options.recordings = recordings.store
        if let decoderSettings { options.decoderSettings = try DecoderServerSettings.load(decoderSettings, for: "--decoder-settings") }
        if !headless {
            // Checked before anything starts, so a bad terminal leaves no recording behind.
            do { _ = try TerminalSession.colorMode(environment: ProcessInfo.processInfo.environment) } catch {
                FileHandle.standardError.writeIfOpen(Data("noisetag demo: \(error); run noisetag demo --headless to run without a terminal\n".utf8))
                throw ExitCode.failure
            }
        }
        let session: DemoSession
        do { session = try DemoSession(options: options, settings: engineSettings) } catch { throw CommandFailure("\(error)") }
        defer { session.close() }
        if session.decoder != nil, let warning = DecoderEndpoint.plainNetworkWarning(for: session.endpoint) {
            FileHandle.standardError.writeIfOpen(Data("noisetag demo: warning: the embedded decoder: \(warning)\n".utf8))
        }
        if !headless {
            // The terminal is restored when run returns: the summary, the recordings and a recording turned off go to the shell.
            var recordingOff = session.startupEvents
            let token = session.controller.events.subscribe { event in
                if case .recordingProblem(_, _, true) = event.kind { recordingOff.append(event) }
            }
            let demo = TerminalDemo(session: session)
            let status = try demo.run(maxSeconds: limit.maxSeconds)
            session.close()
            session.controller.events.unsubscribe(token)
            for event in recordingOff { HeadlessRunner.sayIfRecordingIsOff(event) }
            if let reason = session.scenario.cannotGoOn {
                FileHandle.standardError.writeIfOpen(Data("noisetag demo: no trial can start: \(reason)\n".utf8))
                throw ExitCode.failure
            }
            if let summary = demo.summary { printSummary(summary) }
            printRecordings(session)
            if status == 2 { FileHandle.standardError.writeIfOpen(Data("noisetag demo: stopped after --max-seconds \(limit.maxSeconds) s\n".utf8)) }
            if status != 0 { throw ExitCode(status) }
            return
        }
        let seconds = limit.maxSeconds > 0 ? limit.maxSeconds : 900
        switch HeadlessScenarioRunner(session: session, eventsJSON: eventsJson, maxSeconds: seconds).run() {
        case .interrupted:
            throw ExitCode(130)
        case .cannotGoOn(let reason):
            throw CommandFailure("no trial can start: \(reason)")
        case .timedOut(let summary):
            printSummary(summary)
            FileHandle.standardError.writeIfOpen(Data("noisetag demo: the goal was not confirmed within \(seconds) s\n".utf8))
            throw ExitCode(2)
        case .finished(let summary):
            printSummary(summary)
            guard options.simulatedUser, decoder == nil else { return }
            guard summary.reachedAccuracy(0.9) else {
                FileHandle.standardError.writeIfOpen(Data("noisetag demo: fewer than 90 % of the brain presses were correct\n".utf8))
                throw ExitCode.failure
            }
        }
    }

    /// With `--decoder-key`: the decoder's public key and the engine's key
    /// pair (made on first use in `$NOISETAG_HOME/keys`), whose public key
    /// is printed for the decoder's `authorized_keys` (on standard output,
    /// unless that carries JSON events; a failure stays one stderr line).
    private func engineCurveKeys() throws -> CurveClientKeys? {
        guard let decoderKey else { return nil }
        let serverKey: CurveKey
        do {
            serverKey = decoderKey.count == CurveKey.z85Count
                ? try CurveKey(z85: decoderKey)
                : try CurveKey(contentsOf: URL(fileURLWithPath: (decoderKey as NSString).expandingTildeInPath))
        } catch {
            throw CommandFailure("--decoder-key: \(error)")
        }
        do {
            let folder = CurveKeyFolder.standard()
            let (pair, created) = try folder.loadOrCreateKeyPair(named: "engine")
            if !eventsJson {
                FileHandle.standardOutput.writeIfOpen(Data(("engine public key: \(pair.publicKey.z85) (\(created ? "new, " : "")in "
                    + "\(folder.publicKeyFile(named: "engine").path)); the decoder's authorized_keys must list it\n").utf8))
            }
            return CurveClientKeys(keyPair: pair, serverKey: serverKey)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Where the session's recordings went (nothing when none was written:
    /// a recording that could not be written ended too, but left no folder).
    private func printRecordings(_ session: DemoSession) {
        let root = recordings.store.root
        let folders = session.closedRecordingFolders.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
        guard !folders.isEmpty else { return }
        let text = "recordings in \(recordings.store.root.path):\n" + folders.map { "  \($0)\n" }.joined()
        (eventsJson ? FileHandle.standardError : FileHandle.standardOutput).writeIfOpen(Data(text.utf8))
    }

    private func printSummary(_ summary: DemoSummary) {
        let text = (["summary:"] + summary.lines.map { "  " + $0 }).joined(separator: "\n") + "\n"
        (eventsJson ? FileHandle.standardError : FileHandle.standardOutput).writeIfOpen(Data(text.utf8))
    }
}

/// The demo's `--user` choices.
enum DemoUser: String, ExpressibleByArgument, CaseIterable {
    case simulated, none
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
