import Foundation
import NoiseTagging

/// Runs the engine in real time on a frame loop until a number of trials
/// have ended, writing events to standard output.
final class HeadlessRunner {
    private let controller: NoiseTagController
    private let grid: ButtonGrid
    private let trials: Int
    private let maxSeconds: Double
    private let mode: NoiseTagMode
    private var ended = 0
    private let output = FileHandle.standardOutput

    init(settings: NoiseTagSettings, link: DecoderLink, mode: NoiseTagMode, trials: Int,
         controls: Int, eventsJSON: Bool, maxSeconds: Double) {
        controller = NoiseTagController(clock: MonotonicClock.shared, settings: settings, decoderLink: link)
        grid = ButtonGrid(count: controls)
        self.trials = trials
        self.maxSeconds = maxSeconds
        self.mode = mode
        controller.events.subscribe { [unowned self] event in
            if eventsJSON { self.write(event.jsonLine) } else if let line = Self.summary(of: event) { self.write(line) }
            if case .trialEnded(let end) = event.kind {
                if case .stopped = end.ending {} else { self.ended += 1 }
            }
        }
    }

    /// Runs until `trials` trials have ended (true) or `maxSeconds` pass (false).
    func run() -> Bool {
        let loop = FrameLoop(controller: controller, waiter: RealTimeFrameWaiter())
        controller.push(view: grid.view, forNoiseTaggingWithDelegate: grid)
        controller.set(mode: mode, waitTillDecoderConfirms: false, withExplanation: "noisetag demo --headless")
        controller.trialsAreRunning = true
        let start = controller.clock.now
        while ended < trials {
            loop.step()
            if maxSeconds > 0, controller.clock.now - start > maxSeconds {
                FileHandle.standardError.write(Data("noisetag demo: \(ended) of \(trials) trials ended within --max-seconds \(maxSeconds)\n".utf8))
                return false
            }
        }
        controller.trialsAreRunning = false
        // Let the last press's feedback and actions finish before exiting.
        while controller.isShowingFeedback { loop.step() }
        return true
    }

    private func write(_ line: String) {
        output.write(Data((line + "\n").utf8))
    }

    private static func summary(of event: NoiseTagEvent) -> String? {
        let t = String(format: "%8.3f", event.time)
        switch event.kind {
        case .trialStarted(let s):
            return "\(t) trial \(s.trial) \(s.mode.rawValue)" + (s.target.map { " target \($0)" } ?? "")
        case .trialEnded(let e):
            return "\(t) trial \(e.trial) ended: \(e.ending)" + (e.pressed.map { " (\($0))" } ?? "")
        case .press(let p):
            return "\(t) press \(p.control) by \(p.source.rawValue)" + (p.certainty.map { String(format: " certainty %.3f", $0) } ?? "")
        case .decoderConnection(let state, let alarm):
            return "\(t) decoder \(state.rawValue)" + (alarm ? " (alarm)" : "")
        case .modeChanged(_, let to, _):
            return "\(t) mode \(to.rawValue)"
        case .refused(let call, let reason):
            return "\(t) refused \(call): \(reason)"
        case .decoderProblem(let problem):
            return "\(t) decoder problem: \(problem)"
        default:
            return nil
        }
    }
}
