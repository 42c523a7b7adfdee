import Decoding
import Demo
import Foundation
import NoiseTagging
import UtopiaProtocol

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
    public private(set) var index: Int
    /// Where the current step is.
    public private(set) var phase: Phase = .finished
    /// Set when the session is over.
    public private(set) var ending: Ending?
    /// Messages for the screen and the log, newest last.
    public private(set) var notices: [String] = []
    /// Results written in this run, in order.
    public private(set) var results: [StepResult] = []

    private var controller: NoiseTagController { session.controller }
    private var keyboard: SpellerKeyboard { session.keyboard }
    private var reports: DecoderReports { session.reports }
    private var token: NoiseTagEventStream.Token?
    private var restoreFrom: URL?
    private var saved: [(NoiseTagSettingTitles, NoiseTagSettingValue)] = []
    private var startTime = 0.0, startWall = 0.0
    private var stepRecordings: [String] = []
    private var switchedToTest = false
    private var quality: [[Double]] = []
    private var selections: [Int: Selection] = [:]
    private var finishedSelections: [Selection] = []
    private var revisions = 0
    private var answers: [StepResult.Answer] = []
    private var textReachedAt: Double?

    /// One trial of a spelling or no-control step, as it went.
    private struct Selection {
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
            if !reports.thresholds.isEmpty || reports.calibrationFailed || now - since >= fitTimeout {
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
            if !reports.thresholds.isEmpty || reports.calibrationFailed || now - since >= fitTimeout { endCalibration(now: now) }
        case .spelling(let until):
            participant?.look(at: neededKeyObjectID())
            let text = spellingText
            if case .freeSpell(_, let word?, _) = currentStep?.kind, keyboard.typed.hasSuffix(word) {
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
        case (.instructions(nil), .instructions):
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

    // MARK: Steps

    private var isFreeSpell: Bool {
        if case .freeSpell = currentStep?.kind { return true }
        return false
    }

    private func beginStep() {
        guard let step = currentStep else {
            phase = .finished
            controller.trialsAreRunning = false
            ending = .completed
            return
        }
        let now = controller.clock.now
        startTime = now
        startWall = Date().timeIntervalSince1970
        stepRecordings = controller.folderNameCurrentRecording.map { [URL(fileURLWithPath: $0).lastPathComponent] } ?? []
        saved = []
        for (name, value) in step.settings.sorted(by: { $0.key < $1.key }) {
            guard let title = NoiseTagSettingTitles(name: name) else { continue }
            saved.append((title, controller.settings.value(for: title)))
            do { try controller.settings.set(value: value, for: title) } catch { note("step \(index + 1) setting \(name): \(error)") }
        }
        selections = [:]
        finishedSelections = []
        revisions = 0
        answers = []
        textReachedAt = nil
        controller.sendDecoderALogMessageWith(text: "session step \(index + 1) (\(step.kind.name)): \(step.name)")
        switch step.kind {
        case .instructions(let text, let continueOn, let seconds):
            stopTrials()
            switch continueOn {
            case .seconds: phase = .instructions(until: now + (seconds ?? 0))
            case .key:
                let reads = participant != nil && participantPressesKeys
                phase = .instructions(until: reads ? now + SimulatedParticipant.readingSeconds(text) : nil)
            }
        case .signalCheck(let seconds, _, _, _):
            beginSignalCheck(seconds: seconds, attempt: 1)
        case .calibration(let trials, let trialSeconds, _):
            setForStep(.nGenericTrainTrials, .int(trials))
            if let trialSeconds { setForStep(.trialDurationGenericTrain, .double(trialSeconds)) }
            reports.markCalibrationStart()
            switchedToTest = false
            participant?.look(at: nil)
            controller.set(mode: .trainGeneric, withExplanation: "session step \(index + 1): calibration")
            controller.trialsAreRunning = true
            phase = .calibrating
        case .copySpell(_, let limit):
            beginSpelling(mode: .test, until: now + limit)
        case .freeSpell(let seconds, _, _):
            beginSpelling(mode: .test, until: now + (seconds ?? 86_400))
        case .zeroTrain(_, let limit):
            // Zero training starts from nothing: a model from an earlier calibration is forgotten.
            if !reports.thresholds.isEmpty { controller.resetDecoderCalibration() }
            reports.markCalibrationStart()
            beginSpelling(mode: .zeroTrain, until: now + limit)
        case .noControl(let seconds):
            keyboard.clear()
            participant?.look(at: nil)
            if controller.mode != .test { controller.set(mode: .test, withExplanation: "session step \(index + 1): no control") }
            controller.trialsAreRunning = true
            phase = .noControl(until: now + seconds)
        case .rest(let seconds, _):
            stopTrials()
            phase = .resting(until: now + seconds)
        case .questionnaire:
            stopTrials()
            phase = .question(item: 0, since: now)
        }
    }

    /// Sets `title` for this step only (restored when it ends), unless the step's own settings name it.
    private func setForStep(_ title: NoiseTagSettingTitles, _ value: NoiseTagSettingValue) {
        guard currentStep?.settings[title.rawValue] == nil else { return }
        saved.append((title, controller.settings.value(for: title)))
        do { try controller.settings.set(value: value, for: title) } catch { note("\(title.rawValue): \(error)") }
    }

    private func stopTrials() {
        controller.trialsAreRunning = false
        participant?.look(at: nil)
    }

    private func beginSpelling(mode: NoiseTagMode, until: Double) {
        keyboard.clear()
        if controller.mode != mode { controller.set(mode: mode, withExplanation: "session step \(index + 1): \(currentStep?.kind.name ?? "")") }
        controller.trialsAreRunning = true
        participant?.look(at: neededKeyObjectID())
        phase = .spelling(until: until)
    }

    /// The key the participant needs next: for copying, the text's next
    /// letter (or delete after a wrong one); for a simulated free speller, its own text's.
    private func neededKey() -> String? {
        let text = spellingText
        guard !text.isEmpty else { return nil }
        return SpellingUser.choice(goal: text, typed: keyboard.typed, popupOpen: false)
    }

    private func neededKeyObjectID() -> Int? {
        guard let name = neededKey() else { return nil }
        return keyboard.keys.first { $0.noiseTagging.identifier == name }?.noiseTagging.customUtopiaObjectID
    }

    private func beginSignalCheck(seconds: Double, attempt: Int) {
        stopTrials()
        quality = []
        controller.set(mode: .signalQuality, withExplanation: "session step \(index + 1): signal check, attempt \(attempt)")
        phase = .signalCheck(until: controller.clock.now + seconds, attempt: attempt)
    }

    private func judgeSignal(attempt: Int) {
        guard case .signalCheck(let seconds, let criteria, let onFailure, let attempts)? = currentStep?.kind else { return }
        let now = controller.clock.now
        let channels = quality.map(\.count).max() ?? 0
        var rows: [JSONValue] = []
        var good = 0
        for channel in 0..<channels {
            let values = quality.compactMap { $0.count > channel ? $0[channel] : nil }.sorted()
            let median = values.isEmpty ? 1 : values[values.count / 2]
            let limit = criteria.limit(channel: channel + 1)
            let passed = median <= limit
            if passed { good += 1 }
            rows.append(.object(["channel": .number(Double(channel + 1)), "medianNoise": .number(median),
                                 "limit": .number(limit), "passed": .bool(passed)]))
        }
        let needed = criteria.minimumGoodChannels ?? max(channels, 1)
        let passed = channels > 0 && good >= needed
        let measures: [String: JSONValue] = ["attempts": .number(Double(attempt)), "seconds": .number(now - startTime),
                                             "goodChannels": .number(Double(good)), "neededChannels": .number(Double(needed)),
                                             "channels": .array(rows)]
        if passed {
            endStep("passed", measures: measures)
            return
        }
        let why = channels == 0 ? "no signal quality from the decoder (no EEG?)" : "\(good) of \(channels) channels passed, \(needed) needed"
        switch onFailure {
        case .repeat where attempt < attempts:
            note("signal check attempt \(attempt) failed: \(why); checking again")
            beginSignalCheck(seconds: seconds, attempt: attempt + 1)
        case .continue:
            note("signal check failed: \(why); going on (onFailure: continue)")
            endStep("failed", measures: measures)
        default:
            note("signal check failed: \(why); the session stops")
            endStep("failed", measures: measures, stop: "signal check failed: \(why)")
        }
    }

    private func endCalibration(now: Double) {
        var measures: [String: JSONValue] = ["trials": .number(Double(controller.settings.intFor(.nGenericTrainTrials))),
                                             "certaintyRequired": .number(controller.settings.doubleFor(.certaintyRequiredForPress)),
                                             "thresholdFromDecoder": .bool(!reports.thresholds.isEmpty)]
        if let accuracy = reports.calibrationAccuracy { measures["accuracy"] = .number(accuracy) }
        for line in reports.calibrationLines {
            guard let range = line.range(of: "calibration saved: ") else { continue }
            let path = String(line[range.upperBound...])
            let root = folder.url.path + "/"
            measures["calibrationDataset"] = .string(path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path)
        }
        let fitted = !reports.thresholds.isEmpty
        if !fitted { note(reports.calibrationFailed ? "the decoder fitted no model" : "no threshold from the decoder within \(Int(fitTimeout)) s") }
        endStep(fitted ? "done" : "failed", measures: measures)
    }

    /// Stops trials; the step ends with `outcome` once the last trial and its feedback are over.
    private func close(_ outcome: String) {
        controller.trialsAreRunning = false
        participant?.look(at: nil)
        phase = .closing(outcome: outcome)
    }

    private func endSpelling(_ outcome: String) {
        let now = controller.clock.now
        let all = finishedSelections + selections.values.sorted { $0.trial < $1.trial }
        let counted = all.filter { !$0.stopped }
        let brain = counted.filter { $0.source == "brain" }
        var measures: [String: JSONValue] = ["seconds": .number(now - startTime),
                                             "trials": .number(Double(counted.count)),
                                             "stoppedTrials": .number(Double(all.count - counted.count)),
                                             "selections": .array(all.map(\.json))]
        if case .noControl = currentStep?.kind {
            measures["falsePresses"] = .number(Double(brain.count))
            measures["falsePressesPerMinute"] = .number(Double(brain.count) / max(now - startTime, 1e-9) * 60)
        } else {
            let judged = brain.filter { $0.intended != nil }
            let times = brain.compactMap { selection in selection.end.map { $0 - selection.start } }
            measures["text"] = .string(spellingText)
            measures["typed"] = .string(keyboard.typed)
            measures["classes"] = .number(Double(keyboard.keys.count))
            measures["trialsWithoutPress"] = .number(Double(counted.filter { $0.source == nil || $0.source == "timeout" }.count))
            measures["brainPresses"] = .number(Double(brain.count))
            measures["touchPresses"] = .number(Double(counted.filter { $0.source == "touch" }.count))
            measures["judgedPresses"] = .number(Double(judged.count))
            measures["correctPresses"] = .number(Double(judged.filter { $0.pressed == $0.intended }.count))
            if !times.isEmpty { measures["meanSelectionTime"] = .number(times.reduce(0, +) / Double(times.count)) }
            if let reached = textReachedAt { measures["secondsToText"] = .number(reached - startTime) }
            if case .zeroTrain = currentStep?.kind { measures["revisions"] = .number(Double(revisions)) }
        }
        endStep(outcome, measures: measures)
    }

    private func answer(_ key: Int) {
        guard case .question(let item, let since) = phase, case .questionnaire(let items)? = currentStep?.kind else { return }
        let now = controller.clock.now
        answers.append(StepResult.Answer(item: items[item].id, key: key, answer: items[item].answerText(key), seconds: now - since))
        controller.sendDecoderALogMessageWith(text: "session answer \(items[item].id): \(key)")
        if item + 1 < items.count {
            phase = .question(item: item + 1, since: now)
        } else {
            endStep("done", measures: ["seconds": .number(now - startTime)])
        }
    }

    /// Writes the step's result (to disk, before anything else happens), restores its settings and begins the next step.
    private func endStep(_ outcome: String, measures: [String: JSONValue], stop: String? = nil) {
        guard let step = currentStep else { return }
        let now = controller.clock.now
        for (title, value) in saved.reversed() { try? controller.settings.set(value: value, for: title) }
        saved = []
        if let name = controller.folderNameCurrentRecording.map({ URL(fileURLWithPath: $0).lastPathComponent }),
           !stepRecordings.contains(name) { stepRecordings.append(name) }
        let result = StepResult(step: index + 1, kind: step.kind.name, name: step.name, startTime: startTime, endTime: now,
                                startWallTime: startWall, endWallTime: Date().timeIntervalSince1970, outcome: outcome,
                                measures: measures, answers: answers, recordings: stepRecordings)
        do {
            try folder.append(result)
        } catch {
            note("\(error)")
            controller.trialsAreRunning = false
            phase = .finished
            ending = .stopped("\(error)")
            return
        }
        results.append(result)
        controller.sendDecoderALogMessageWith(text: "session step \(index + 1) ended: \(outcome)")
        onResult?(result)
        if let stop {
            controller.trialsAreRunning = false
            phase = .finished
            ending = .stopped(stop)
            return
        }
        index += 1
        beginStep()
    }

    private func note(_ text: String) {
        notices.append(text)
        if notices.count > 50 { notices.removeFirst() }
    }

    // MARK: Engine and decoder

    private func hear(_ event: NoiseTagEvent) {
        switch event.kind {
        case .modeChanged(.trainGeneric, .test, _):
            if phase == .calibrating { switchedToTest = true }
        case .recordingStarted(let folderName, _, _):
            let name = URL(fileURLWithPath: folderName).lastPathComponent
            if !stepRecordings.contains(name) { stepRecordings.append(name) }
        case .trialStarted(let start) where start.mode == .test || start.mode == .zeroTrain:
            guard isTrialStep else { return }
            let intended: String?
            if case .noControl = currentStep?.kind { intended = nil }
            else if isFreeSpell, participant == nil { intended = nil }
            else { intended = neededKey() }
            selections[start.trial] = Selection(trial: start.trial, start: event.time, intended: intended)
        case .press(let press):
            guard let trial = press.trial, selections[trial] != nil else { return }
            selections[trial]?.pressed = press.control
            selections[trial]?.source = press.source.rawValue
            selections[trial]?.certainty = press.certainty
        case .selectionRevised:
            revisions += 1
        case .trialEnded(let end):
            guard var selection = selections.removeValue(forKey: end.trial) else { return }
            selection.end = event.time
            if case .stopped = end.ending { selection.stopped = true }
            finishedSelections.append(selection)
        default:
            break
        }
    }

    private var isTrialStep: Bool {
        switch currentStep?.kind {
        case .copySpell, .freeSpell, .zeroTrain, .noControl: return true
        default: return false
        }
    }

    private func hear(_ traffic: DecoderTraffic) {
        guard traffic.direction == .in, case .signalQuality(let message) = traffic.message, case .signalCheck = phase else { return }
        quality.append(message.quality.map { $0.isFinite ? min(max(Double($0), 0), 1) : 1 })
    }
}
