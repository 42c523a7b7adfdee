import ArgumentParser
import DecoderService
import Decoding
import Demo
import Foundation
import IOThreads
import JSONSupport
import LabFormats
import NoiseTagging
import Study
import TerminalUI

/// `noisetag session run PROTOCOL.json`: runs a study session's steps,
/// full-screen or headless, writing each step's result as it ends.
struct SessionRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a study session's protocol (full-screen, or --headless with a simulated participant).",
        discussion: """
        Makes a session folder in --recordings named after the start time and --participant, \
        holding session.json (the protocol, the participant), steps.jsonl (one result per \
        finished step, on disk the moment the step ends) and the engine's recordings. The \
        reference decoder runs inside this process; --user simulated (the default) simulates \
        the amplifier and the participant, who does what each step asks; --user none waits \
        for an acquisition client (a real amplifier streamer) and a person at the keys. \
        --resume SESSION continues a session folder at the first step without a result (a \
        step cut short by Ctrl-C or a crash runs again; a signal check that stopped the \
        session is checked again). Exits 0 when every step ran, 1 when a step stopped the \
        session or something failed (one line names it), 2 after --max-seconds, 130 on Ctrl-C or SIGTERM.
        """)

    @Argument(help: ArgumentHelp("The protocol (JSON; Protocols/session.md). Not with --resume.", valueName: "PROTOCOL"))
    var protocolFile: String?

    @Option(name: .customLong("participant"), help: "The participant's identifier (letters, digits, - and _; default anonymous). Not with --resume.")
    var participantOption: String?

    @Flag(help: "Run without a terminal display (the simulated participant takes part).")
    var headless = false

    @Option(help: ArgumentHelp("Continue this session folder at its next step.", valueName: "SESSION"))
    var resume: String?

    @Option(name: .customLong("user"), help: "With the embedded decoder: simulated (a simulated amplifier and participant; the default) or none (an acquisition client streams EEG, a person answers). Not with --resume.")
    var userOption: DemoUser?

    @Option(name: .customLong("snr"), parsing: .unconditional, help: "Simulated SNR (power ratio; default 0.05). Not with --resume.")
    var snrOption: Double?

    @Option(name: .customLong("seed"), parsing: .unconditional, help: "Simulated participant's seed (EEG noise, questionnaire answers; default 1). Not with --resume.")
    var seedOption: UInt64?

    // The session's own values: a resumed session keeps those of its session.json.
    private var participant: String { participantOption ?? "anonymous" }
    private var user: DemoUser { userOption ?? .simulated }
    private var snr: Double { snrOption ?? 0.05 }
    private var seed: UInt64 { seedOption ?? 1 }

    @Option(help: ArgumentHelp("The embedded decoder's settings (JSON, as noisetag decoder --settings reads them, without calibrationFolder: calibrations stay in the session folder); kept in session.json, so --resume uses them too.", valueName: "FILE"))
    var decoderSettings: String?

    @OptionGroup var limit: MaxSecondsOption

    @OptionGroup var recordings: RecordingsOption

    func validate() throws {
        if resume == nil, protocolFile == nil { throw ValidationError("give a PROTOCOL file, or --resume SESSION") }
        if resume != nil, protocolFile != nil { throw ValidationError("--resume continues a session with its own protocol; give no PROTOCOL") }
        if resume != nil, decoderSettings != nil {
            throw ValidationError("--resume continues a session with the decoder settings in its session.json; give no --decoder-settings")
        }
        if resume != nil {
            let given = [("--participant", participantOption != nil), ("--user", userOption != nil), ("--snr", snrOption != nil), ("--seed", seedOption != nil)]
                .filter(\.1).map(\.0)
            if !given.isEmpty {
                throw ValidationError("--resume continues a session with the participant, user, SNR and seed in its session.json; give no \(given.joined(separator: " or "))")
            }
        }
        if let problem = SessionFolder.problem(withParticipant: participant) { throw ValidationError("--participant: \(problem)") }
        guard snr > 0, snr.isFinite else { throw ValidationError("--snr \(snr): must be a finite number above 0") }
        try limit.check()
        if headless, user == .none { throw ValidationError("--headless needs the simulated participant (--user simulated)") }
    }

    func run() throws {
        let plan: SessionProtocol
        let folder: SessionFolder
        var startAt = 0
        var restoring: URL?
        let lock: SessionFolderLock
        if let resume {
            do { folder = try SessionFolder.open(URL(fileURLWithPath: resume, isDirectory: true)) } catch { throw CommandFailure("--resume: \(error)") }
            do { lock = try folder.lock() } catch { throw CommandFailure("--resume: \(error)") }
            do { plan = try folder.sessionProtocol() } catch { throw CommandFailure("\(error)") }
            let point: SessionFolder.ResumePoint
            do { point = try folder.resumePoint(in: plan) } catch { throw CommandFailure("\(error)") }
            guard point.step < plan.steps.count else {
                throw CommandFailure("--resume: \(folder.url.lastPathComponent): all \(plan.steps.count) steps are done; nothing left to run")
            }
            startAt = point.step
            restoring = point.calibration
            try checkTerminal()
        } else {
            do { plan = try SessionProtocol.load(from: URL(fileURLWithPath: protocolFile ?? "")) } catch { throw CommandFailure("\(error)") }
            let settings = try loadDecoderSettings()
            try checkTerminal()
            let root = recordings.store.root
            do { try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) } catch {
                throw CommandFailure("recordings folder \(root.path): cannot be created (\(FileProblem.whyNotWritten(root, error, folder: true)))")
            }
            let manifest = SessionManifest(participant: participant, protocolFile: protocolFile ?? "", protocol: plan.json,
                                           startedWallTime: Date().timeIntervalSince1970, seed: seed, simulated: user == .simulated,
                                           snr: user == .simulated ? snr : nil, decoderSettings: settings)
            do { folder = try SessionFolder.create(in: root, manifest: manifest) } catch { throw CommandFailure("\(error)") }
            do { lock = try folder.lock() } catch { throw CommandFailure("\(error)") }
        }
        defer { withExtendedLifetime(lock) {} }
        let options = folder.demoOptions(snr: snr)
        let demo: DemoSession
        do { demo = try DemoSession(options: options) } catch { throw CommandFailure("\(error)") }
        defer { demo.close() }
        let participant = folder.manifest.simulated ? SimulatedParticipant(focus: demo.focus, seed: folder.manifest.seed) : nil
        let scenario = SessionScenario(session: demo, plan: plan, folder: folder, participant: participant,
                                       startAt: startAt, restoringCalibration: restoring)
        let status = headless ? runHeadless(scenario, folder: folder) : try runFullScreen(scenario, demo: demo)
        if !headless {
            let done = (try? folder.results().count) ?? 0
            let state = scenario.ending == .completed ? "completed" : "stopped at step \(scenario.index + 1); --resume continues there"
            print("session \(state): \(done) of \(plan.steps.count) steps have results in \(folder.url.path)")
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The `--decoder-settings` file, nil without one; a file that names a
    /// calibration folder fails too (the session keeps its own).
    private func loadDecoderSettings() throws -> DecoderServerSettings? {
        guard let decoderSettings else { return nil }
        let settings = try DecoderServerSettings.load(decoderSettings, for: "--decoder-settings")
        if let folder = settings.calibrationFolder {
            throw CommandFailure("--decoder-settings: \(decoderSettings): calibrationFolder \(folder.path): a session keeps its calibrations in its own folder; leave the key out")
        }
        return settings
    }

    /// Full screen needs a terminal: checked after the protocol and before
    /// anything is made, so a bad terminal leaves no session folder behind.
    private func checkTerminal() throws {
        guard !headless else { return }
        do { _ = try TerminalSession.colorMode(environment: ProcessInfo.processInfo.environment) } catch {
            FileHandle.standardError.writeIfOpen(Data("noisetag session run: \(error); run with --headless to run without a terminal\n".utf8))
            throw ExitCode.failure
        }
    }

    private func runFullScreen(_ scenario: SessionScenario, demo: DemoSession) throws -> Int32 {
        try TerminalSession.run { terminal in
            let runner = TerminalRunner(session: terminal, loop: FrameLoop(controller: demo.controller, waiter: RealTimeFrameWaiter()))
            let screen = SessionScreen(scenario: scenario, snapshot: { demo.decoder?.signalSnapshot ?? .empty })
            scenario.participantPressesKeys = false
            scenario.start()
            let start = demo.controller.clock.now, maxSeconds = limit.maxSeconds
            var timedOut = false
            let status = runner.run(screen) {
                scenario.step()
                timedOut = maxSeconds > 0 && demo.controller.clock.now - start >= maxSeconds
                return timedOut
            }
            if status != 0 { return status }
            if timedOut { return 2 }
            if case .stopped = scenario.ending { return 1 }
            return 0
        }
    }

    private func runHeadless(_ scenario: SessionScenario, folder: SessionFolder) -> Int32 {
        StopSignal.install()
        let controller = scenario.session.controller
        let out = FileHandle.standardOutput
        func say(_ text: String) { out.writeIfOpen(Data((String(format: "%9.3f ", controller.clock.now) + text + "\n").utf8)) }
        say("session: \(scenario.plan.name), participant \(folder.manifest.participant), \(CountText.format(scenario.plan.steps.count, "step"))")
        say("session folder: \(folder.url.path)")
        scenario.onResult = { result in say("step \(result.step) \(result.name): \(result.outcome) after \(String(format: "%.1f", result.duration)) s"
                                           + Self.summary(of: result)) }
        let loop = FrameLoop(controller: controller, waiter: RealTimeFrameWaiter())
        scenario.start()
        let start = controller.clock.now
        var shownStep = -1, notices = 0
        let ending = loop.run(maxSeconds: limit.maxSeconds, stopRequested: { StopSignal.requested }) {
            scenario.step()
            if scenario.index != shownStep, let step = scenario.currentStep {
                shownStep = scenario.index
                say("step \(scenario.index + 1) of \(scenario.plan.steps.count): \(step.name) (\(step.kind.name))")
            }
            for notice in scenario.notices.dropFirst(notices) { say("session: " + notice) }
            notices = scenario.notices.count
            return scenario.ending == nil
        }
        switch ending {
        case .stopped:
            say("interrupted: step \(scenario.index + 1) has no result; --resume runs it again")
            return 130
        case .timedOut:
            say("gave up after --max-seconds \(limit.maxSeconds)")
            return 2
        case .finished:
            break
        }
        switch scenario.ending {
        case .stopped(let why)?:
            say("session stopped: \(why)")
            return 1
        default:
            say("session completed: \(CountText.format(scenario.results.count, "step")) in \(String(format: "%.1f", controller.clock.now - start)) s")
            return 0
        }
    }

    /// A short summary of a result's measures for the log line.
    static func summary(of result: StepResult) -> String {
        let m = result.measures
        func number(_ key: String) -> Double? { m[key]?.number }
        switch result.kind {
        case "signalCheck":
            return "; \(Int(number("goodChannels") ?? 0)) of \(m["channels"]?.array?.count ?? 0) channels good"
        case "calibration":
            return "; accuracy " + (number("accuracy").map { "\(Int(($0 * 100).rounded())) %" } ?? "not reported")
                + ", certainty required " + (number("certaintyRequired").map(CertaintyText.format) ?? "not reported")
        case "copySpell", "freeSpell", "zeroTrain":
            return "; typed \"\(m["typed"]?.string ?? "")\", \(Int(number("correctPresses") ?? 0)) of \(Int(number("judgedPresses") ?? 0)) presses right"
        case "noControl":
            return String(format: "; %d false presses (%.2f per minute)", Int(number("falsePresses") ?? 0), number("falsePressesPerMinute") ?? 0)
        case "questionnaire":
            return "; " + result.answers.map { "\($0.item)=\($0.answer)" }.joined(separator: ", ")
        default:
            return ""
        }
    }
}
