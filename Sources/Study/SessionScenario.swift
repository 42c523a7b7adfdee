import Decoding
import Demo
import Foundation
import NoiseTagging
import UtopiaProtocol
import JSONSupport
import LabFormats

/// A study session's steps run on a real controller: the demo's wiring
/// (``DemoSession``: the decoder, the engine and its recordings, the
/// keyboard) driven step by step through a ``SessionProtocol``. Each step
/// sets the engine up for what the participant does (signal quality,
/// cued calibration, spelling in Test or ZeroTrain, trials running with
/// nobody looking, trials stopped for a break, instructions or
/// questions), applies its settings overrides and restores them after,
/// and, the moment it ends, writes its ``StepResult`` to the session
/// folder's `steps.jsonl` (flushed to disk). A step cut short by Ctrl-C or
/// a crash has no result, so `session run --resume` runs it again.
///
/// Call ``step()`` after every frame (it reacts to what the engine did in
/// it) and ``handle(key:)`` with the participant's keys in full screen.
///
/// ```swift
/// let scenario = SessionScenario(session: demo, plan: study, folder: folder, participant: participant)
/// let loop = FrameLoop(controller: demo.controller, waiter: RealTimeFrameWaiter())
/// scenario.start()
/// while scenario.ending == nil { loop.step(); scenario.step() }
/// ```
public final class SessionScenario {
    /// Where the session is within its current step.
    public enum Phase: Equatable, Sendable {
        /// Resumed after a calibration: the saved calibration is being fitted again (since engine time).
        case restoring(since: Double)
        /// Instructions on screen; until an engine time, or (nil) until a key.
        case instructions(until: Double?)
        /// The signal view until an engine time; `attempt` counts from 1.
        case signalCheck(until: Double, attempt: Int)
        /// Cued calibration trials.
        case calibrating
        /// Calibration ended; the decoder fits (since engine time).
        case fitting(since: Double)
        /// Typing on the keyboard (copy, free or zero-training); until an engine time.
        case spelling(until: Double)
        /// Trials run while the participant looks away; until an engine time.
        case noControl(until: Double)
        /// A break until an engine time.
        case resting(until: Double)
        /// Questionnaire item `item` (0-based) on screen since an engine time.
        case question(item: Int, since: Double)
        /// Trials stopped; waiting for the last trial and its feedback to end, then the step ends with `outcome`.
        case closing(outcome: String)
        /// No step left.
        case finished
    }

    /// How the session ended.
    public enum Ending: Equatable, Sendable {
        /// Every step ran.
        case completed
        /// A step stopped the session (a signal check that failed; a result that could not be written).
        case stopped(String)
    }

    /// The demo's wiring the steps run on.
    public let session: DemoSession
    /// The protocol.
    public let plan: SessionProtocol
    /// Where results go.
    public let folder: SessionFolder
    /// The simulated participant, nil when a person takes part.
    public let participant: SimulatedParticipant?
    /// True when the simulated participant also presses the keys (reads the
    /// instructions and continues, answers questions): headless. False in
    /// full screen, where the person at the terminal presses them while the
    /// simulated participant only gazes.
    public var participantPressesKeys = true
    /// How long a fit may take before the step goes on without the decoder's threshold, s.
    public var fitTimeout = 120.0
    /// Called with each result once it is on disk.
    public var onResult: ((StepResult) -> Void)?
    /// The current step's index (0-based); `plan.steps.count` when finished.
    public internal(set) var index: Int
    /// Where the current step is.
    public internal(set) var phase: Phase = .finished
    /// Set when the session is over.
    public internal(set) var ending: Ending?
    /// Messages for the screen and the log, newest last.
    public internal(set) var notices: [String] = []
    /// Results written in this run, in order.
    public internal(set) var results: [StepResult] = []

    var controller: NoiseTagController { session.controller }
    var keyboard: SpellerKeyboard { session.keyboard }
    var reports: DecoderReports { session.reports }
    var token: NoiseTagEventStream.Token?
    var restoreFrom: URL?
    var saved: [(NoiseTagSettingTitles, NoiseTagSettingValue)] = []
    var startTime = 0.0, startWall = 0.0
    var stepRecordings: [String] = []
    var switchedToTest = false
    var quality: [[Double]] = []
    var selections: [Int: Selection] = [:]
    var finishedSelections: [Selection] = []
    var revisions = 0
    var answers: [StepResult.Answer] = []
    var textReachedAt: Double?

    /// One trial of a spelling or no-control step, as it went.
    struct Selection {
        var trial: Int
        var start: Double
        var end: Double?
        var intended: String?
        var pressed: String?
        var source: String?
        var certainty: Double?
        var stopped = false

        var json: JSONValue {
            var object: [String: JSONValue] = ["trial": .number(Double(trial)), "start_time": .number(start),
                                               "intended": intended.map(JSONValue.string) ?? .null,
                                               "pressed": pressed.map(JSONValue.string) ?? .null,
                                               "source": source.map(JSONValue.string) ?? .null,
                                               "certainty": certainty.map(JSONValue.number) ?? .null]
            if let end {
                object["end_time"] = .number(end)
                object["seconds"] = .number(end - start)
            }
            if stopped { object["stopped"] = .bool(true) }
            return .object(object)
        }
    }

    /// A scenario on `session` (whose own walk-through must not be started),
    /// from step `startAt` (0-based: the first step without a result when
    /// resuming). `restoringCalibration`: a saved calibration dataset to fit
    /// before the first step (a resumed session whose calibration step is done).
    public init(session: DemoSession, plan: SessionProtocol, folder: SessionFolder, participant: SimulatedParticipant?,
                startAt: Int = 0, restoringCalibration: URL? = nil) {
        self.session = session
        self.plan = plan
        self.folder = folder
        self.participant = participant
        index = max(0, startAt)
        restoreFrom = restoringCalibration
        token = session.controller.events.subscribe { [unowned self] event in self.hear(event) }
        session.controller.observeDecoderTraffic { [weak self] traffic in self?.hear(traffic) }
    }

    deinit { if let token { controller.events.unsubscribe(token) } }

    /// The current step, nil when finished.
    public var currentStep: SessionStep? { index < plan.steps.count ? plan.steps[index] : nil }

    /// The text the current spelling step asks for ("" otherwise).
    public var spellingText: String {
        switch currentStep?.kind {
        case .copySpell(let text, _), .zeroTrain(let text, _): return text
        case .freeSpell(_, let word, let text): return participant == nil ? (word ?? "") : text
        default: return ""
        }
    }

    /// Pushes the keyboard, applies the protocol's settings and begins the first step.
    public func start() {
        controller.push(view: keyboard.view, forNoiseTaggingWithDelegate: keyboard)
        for (name, value) in plan.settings.sorted(by: { $0.key < $1.key }) {
            do { try controller.settings.set(value: value, forTitleNamed: name) } catch { note("setting \(name): \(error)") }
        }
        controller.trialsAreRunning = false
        if let url = restoreFrom, let decoder = session.decoder {
            do {
                decoder.fit(try TrialsDataset.read(from: url))
                note("resumed: fitting the decoder again on the saved calibration \(url.lastPathComponent)")
                reports.markCalibrationStart()
                phase = .restoring(since: controller.clock.now)
                return
            } catch {
                note("resumed: the saved calibration \(url.path) could not be read (\(error)); going on without it")
            }
        }
        beginStep()
    }

    /// Reacts to the frame just run: ends the current phase when due and moves the simulated participant's gaze.
    public func step() {
        guard ending == nil else { return }
        let now = controller.clock.now
        switch phase {
        case .restoring(let since):
            if reports.fitHasEnded(since: since, now: now, timeout: fitTimeout) {
                if reports.thresholds.isEmpty { note("resumed: the saved calibration gave no model") }
                beginStep()
            }
        case .instructions(let until):
            if let until, now >= until { endStep("done", measures: ["seconds": .number(now - startTime)]) }
        case .signalCheck(let until, let attempt):
            if now >= until { judgeSignal(attempt: attempt) }
        case .calibrating:
            if switchedToTest {
                switchedToTest = false
                controller.trialsAreRunning = false
                phase = .fitting(since: now)
            }
        case .fitting(let since):
            if reports.fitHasEnded(since: since, now: now, timeout: fitTimeout) { endCalibration(now: now) }
        case .spelling(let until):
            participant?.look(at: neededKeyObjectID())
            let text = spellingText
            if case .freeSpell(_, let word?, _) = currentStep?.kind, SessionStep.endsWithWord(keyboard.typed, word) {
                close("done")
            } else if case .freeSpell = currentStep?.kind, now >= until {
                close("done")
            } else if !text.isEmpty, keyboard.typed == text, !isFreeSpell {
                textReachedAt = textReachedAt ?? now
                close("done")
            } else if now >= until {
                close("timeout")
            }
        case .noControl(let until):
            participant?.look(at: nil)
            if now >= until { close("done") }
        case .resting(let until):
            if now >= until { endStep("done", measures: ["seconds": .number(now - startTime)]) }
        case .question(let item, let since):
            guard case .questionnaire(let items) = currentStep?.kind, let participant, participantPressesKeys else { break }
            if now - since >= SimulatedParticipant.answerSeconds { answer(participant.answer(items[item])) }
        case .closing(let outcome):
            if !controller.trialInProgress, !controller.isShowingFeedback { endSpelling(outcome) }
        case .finished:
            break
        }
    }

    /// Takes a key from the participant (full screen); true when it did something.
    /// Instructions continue on any key (`continueOn: key`); a break or a
    /// signal check ends early on Enter; questionnaire items take 1…N.
    @discardableResult
    public func handle(key: UInt8) -> Bool {
        guard ending == nil, let step = currentStep else { return false }
        let now = controller.clock.now
        switch (phase, step.kind) {
        case (.instructions, .instructions(_, .key, _)):
            endStep("done", measures: ["seconds": .number(now - startTime)])
            return true
        case (.resting, .rest(_, true)) where key == 13 || key == 10:
            endStep("skipped", measures: ["seconds": .number(now - startTime), "skipped": .bool(true)])
            return true
        case (.signalCheck(_, let attempt), _) where key == 13 || key == 10:
            judgeSignal(attempt: attempt)
            return true
        case (.question(let item, _), .questionnaire(let items)):
            guard key >= UInt8(ascii: "1"), key <= UInt8(ascii: "9") else { return false }
            let k = Int(key - UInt8(ascii: "0"))
            guard k <= items[item].scale else { return false }
            answer(k)
            return true
        default:
            return false
        }
    }
}
