import Foundation
import IOThreads
import NoiseTagging

/// Runs the engine in real time on a frame loop until a number of trials
/// have ended, writing events to standard output.
final class HeadlessRunner {
    private let controller: NoiseTagController
    private let grid: ButtonGrid
    private let trials: Int
    private let maxSeconds: Double
    private let connectTimeout: Double
    private let mode: NoiseTagMode
    private var ended = 0
    private var refusal: String?
    private let output = FileHandle.standardOutput

    /// How a run ended.
    enum Outcome {
        case finished, timedOut, interrupted, noDecoder
        /// The decoder answered, then stayed lost for `connectTimeout`
        /// after this many trials had ended.
        case decoderLost(trialsEnded: Int)
        /// The engine refused to start a trial on the grid (more buttons
        /// than codes): why. No trial would ever start.
        case refused(String)
    }

    /// Records into `recordings` from the start. The recorder subscribes
    /// before the printer, so an event is in the recording's buffer (and a
    /// trial end handed to the operating system) before it is printed.
    init(settings: NoiseTagSettings, link: DecoderLink, mode: NoiseTagMode, trials: Int,
         controls: Int, eventsJSON: Bool, maxSeconds: Double, connectTimeout: Double,
         recordings: RecordingStore) {
        controller = NoiseTagController(clock: MonotonicClock.shared, settings: settings, decoderLink: link)
        grid = ButtonGrid(count: controls)
        self.trials = trials
        self.maxSeconds = maxSeconds
        self.connectTimeout = connectTimeout
        self.mode = mode
        var early: [NoiseTagEvent] = []
        let token = controller.events.subscribe { early.append($0) }
        controller.startRecording(in: recordings)
        controller.events.unsubscribe(token)
        let output = output
        let show: (NoiseTagEvent) -> Void = { event in
            Self.sayIfRecordingIsOff(event)
            let line = eventsJSON ? event.jsonLine : Self.summary(of: event).map { String(format: "%8.3f ", event.time) + $0 }
            if let line { output.writeIfOpen(Data((line + "\n").utf8)) }
        }
        early.forEach(show)
        controller.events.subscribe { [unowned self] event in
            show(event)
            if case .trialEnded(let end) = event.kind {
                if case .stopped = end.ending {} else { self.ended += 1 }
            }
            if case .refused("trial start", let reason) = event.kind { self.refusal = reason }
        }
    }

    /// Runs until `trials` trials have ended, `maxSeconds` pass, no decoder
    /// has answered within `connectTimeout` (or one that answered stays lost
    /// that long), or SIGINT/SIGTERM arrives; then ends the recording ("App
    /// ended").
    func run() -> Outcome {
        StopSignal.install()
        defer { controller.stopRecording() }
        let loop = FrameLoop(controller: controller, waiter: RealTimeFrameWaiter())
        controller.push(view: grid.view, forNoiseTaggingWithDelegate: grid)
        controller.set(mode: mode, waitTillDecoderConfirms: false, withExplanation: "noisetag demo --headless")
        controller.trialsAreRunning = true
        let start = controller.clock.now
        var heardFromDecoder = false, noDecoder = false
        var lostSince: Double?, lost = false
        // Trials stop as the last one ends; the run then lets its press's feedback and action finish.
        let ending = loop.run(maxSeconds: maxSeconds, stopRequested: { StopSignal.requested }) {
            let now = controller.clock.now
            if controller.decoderConnection == .connected {
                heardFromDecoder = true
                lostSince = nil
            } else if heardFromDecoder, lostSince == nil {
                lostSince = now
            }
            if connectTimeout > 0, !heardFromDecoder, now - start > connectTimeout { noDecoder = true }
            if connectTimeout > 0, let since = lostSince, now - since > connectTimeout { lost = true }
            guard ended >= trials || noDecoder || lost || refusal != nil else { return true }
            controller.trialsAreRunning = false
            return false
        }
        switch ending {
        case .stopped:
            controller.trialsAreRunning = false
            return .interrupted
        case .timedOut:
            FileHandle.standardError.writeIfOpen(Data("noisetag demo: \(ended) of \(trials) trials ended within --max-seconds \(maxSeconds)\n".utf8))
            return .timedOut
        case .finished:
            if let refusal { return .refused(refusal) }
            if noDecoder { return .noDecoder }
            return ended < trials && lost ? .decoderLost(trialsEnded: ended) : .finished
        }
    }

    /// Says on standard error that recording is off, when `event` says so
    /// (Protocols/recordings-reading.md): the demo runs on without it.
    static func sayIfRecordingIsOff(_ event: NoiseTagEvent) {
        if case .recordingProblem(let path, let reason, true) = event.kind {
            FileHandle.standardError.writeIfOpen(Data("noisetag demo: recording is off: \(reason) (\(path)); the demo runs on without recording\n".utf8))
        }
    }

    /// One line (without its time) for the events worth printing: trials,
    /// presses, decoder, mode, recording and refused calls; nil for others.
    static func summary(of event: NoiseTagEvent) -> String? {
        switch event.kind {
        case .trialStarted(let s):
            return "trial \(s.trial) \(s.mode.rawValue)" + (s.target.map { " target \($0)" } ?? "")
        case .trialEnded(let e):
            return "trial \(e.trial) ended: \(e.ending)" + (e.pressed.map { " (\($0))" } ?? "")
        case .press(let p):
            return "press \(p.control) by \(p.source.rawValue)" + (p.certainty.map { String(format: " certainty %.3f", $0) } ?? "")
        case .decoderConnection(let state, let alarm):
            return "decoder \(state.rawValue)" + (alarm ? " (alarm)" : "")
        case .modeChanged(_, let to, _):
            return "mode \(to.rawValue)"
        case .refused(let call, let reason):
            return "refused \(call): \(reason)"
        case .decoderProblem(let problem):
            return "decoder problem: \(problem)"
        case .decoderCalibration(let c):
            var accuracy = ""
            if let a = c.accuracy, let s = c.seconds { accuracy = String(format: ", %.0f %% at %.1f s", a * 100, s) }
            return "decoder calibration: " + (c.fitted ? "fitted" : "no model") + " on \(c.trials) trials\(accuracy): \(c.summary)"
        case .recordingStarted(let folder, _, _):
            return "recording \(folder)"
        case .recordingProblem(let path, let reason, _):
            return "recording problem: \(reason) (\(path))"
        case .recordingLinesDropped(let frames, let others):
            return "recording dropped \(frames) frame lines and \(others) other lines: the disk cannot keep up"
        default:
            return nil
        }
    }
}
