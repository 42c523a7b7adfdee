import Decoding
import Demo
import Foundation
import IOThreads
import NoiseTagging

/// `noisetag demo --headless` without `--decoder`: the demo's walk-through
/// (signal check, calibration, results, spelling the goal, confirming it)
/// in real time without a terminal, printing what happens and a summary.
final class HeadlessScenarioRunner {
    private let session: DemoSession
    private let eventsJSON: Bool
    private let maxSeconds: Double
    private let output = FileHandle.standardOutput

    /// How a run ended.
    enum Outcome { case finished(DemoSummary), timedOut(DemoSummary), interrupted, cannotGoOn(String) }

    init(session: DemoSession, eventsJSON: Bool, maxSeconds: Double) {
        self.session = session
        self.eventsJSON = eventsJSON
        self.maxSeconds = maxSeconds
        let scenario = session.scenario
        let output = output
        let show: (NoiseTagEvent) -> Void = { event in
            HeadlessRunner.sayIfRecordingIsOff(event)
            if eventsJSON {
                output.writeIfOpen(Data((event.jsonLine + "\n").utf8))
            } else if let line = Self.line(for: event, scenario: scenario) {
                output.writeIfOpen(Data((String(format: "%8.3f ", event.time) + line + "\n").utf8))
            }
        }
        session.startupEvents.forEach(show)
        session.controller.events.subscribe(show)
    }

    private func say(_ text: String) {
        guard !eventsJSON else { return }
        output.writeIfOpen(Data((String(format: "%8.3f ", session.controller.clock.now) + text + "\n").utf8))
    }

    /// Runs until the goal is confirmed, `maxSeconds` pass, or SIGINT/SIGTERM.
    func run() -> Outcome {
        StopSignal.install()
        let controller = session.controller
        let scenario = session.scenario
        let loop = FrameLoop(controller: controller, waiter: RealTimeFrameWaiter())
        say("demo: \(session.userDescription); goal \"\(scenario.goal)\"")
        scenario.start()
        var stage = scenario.stage.name
        var printedLines = 0, notices = 0
        say("stage: \(stage)")
        let ending = loop.run(maxSeconds: maxSeconds, stopRequested: { StopSignal.requested }) {
            scenario.step()
            let lines = session.reports.calibrationLines
            if lines.count < printedLines { printedLines = 0 }
            // A failed fit's reason is on the decoderCalibration event's line already: its LOG twin is left out.
            for line in lines.dropFirst(printedLines) where !line.hasPrefix("decoder: calibration failed: ") {
                say(line.hasPrefix("decoder: ") ? line : "decoder: " + line)
            }
            printedLines = lines.count
            for notice in scenario.notices.dropFirst(notices) { say("demo: " + notice) }
            notices = scenario.notices.count
            if scenario.stage.name != stage {
                stage = scenario.stage.name
                switch scenario.stage {
                case .results:
                    let accuracy = session.reports.calibrationAccuracy.map { "\(Int(($0 * 100).rounded())) %" } ?? "not reported"
                    say("stage: results: accuracy \(accuracy), certainty required \(CertaintyText.format(controller.settings.doubleFor(.certaintyRequiredForPress)))"
                        + (scenario.thresholdAtCeiling ? " (too little calibration for a safe threshold: calibrate with more trials)" : ""))
                default:
                    say("stage: \(stage)")
                }
            }
            return scenario.stage != .finished && scenario.cannotGoOn == nil
        }
        if let reason = scenario.cannotGoOn { return .cannotGoOn(reason) }
        switch ending {
        case .stopped: return .interrupted
        case .timedOut: return .timedOut(scenario.summary(missedFrames: loop.missedFrames))
        case .finished: return .finished(scenario.summary(missedFrames: loop.missedFrames))
        }
    }

    private static func line(for event: NoiseTagEvent, scenario: DemoScenario) -> String? {
        switch event.kind {
        case .trialStarted(let s) where s.mode != .test && s.mode != .zeroTrain:
            return "trial \(s.trial) \(s.mode.rawValue)" + (s.target.map { " cued \($0)" } ?? "")
        case .trialEnded(let e) where e.mode == .test || e.mode == .zeroTrain:
            let what: String
            switch e.ending {
            case .pressed(let source): what = "pressed \(e.pressed ?? "?") by \(source.rawValue)"
            case .noPress, .completed: what = "no press"
            case .stopped(let cause): what = "stopped (\(cause))"
            }
            return String(format: "trial %d: %@ after %.2f s", e.trial, what, e.duration)
        case .press(let p) where p.source == .brain:
            return "press \(p.control)" + (p.certainty.map { " certainty " + CertaintyText.format($0) } ?? "")
        case .actionRan(let control, _):
            if control == ConfirmationPopup.yesIdentifier || control == ConfirmationPopup.noIdentifier {
                return "answered \(control)"
            }
            return "typed \"\(scenario.keyboard.typed)\""
        case .unitPushed(_, let context?):
            return "pushed " + context
        case .unitPopped(_, let context?):
            return "popped " + context
        case .trialStarted, .trialEnded, .press, .modeChanged:
            return nil          // the walk-through's own lines above (and its stages) tell these
        default:
            return HeadlessRunner.summary(of: event)    // decoder, recording and refused lines, as the scripted runner prints them
        }
    }
}
