import Decoding
import Demo
import Foundation
import NoiseTagging
import UtopiaProtocol
import JSONSupport
import LabFormats

extension SessionScenario {
    // MARK: Steps

    var isFreeSpell: Bool {
        if case .freeSpell = currentStep?.kind { return true }
        return false
    }

    func beginStep() {
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
                // A key continues; `seconds`, when given, is the most the text stays (as session check says).
                let reads = participant != nil && participantPressesKeys
                let read = reads ? now + SimulatedParticipant.readingSeconds(text) : .infinity
                let until = min(read, seconds.map { now + $0 } ?? .infinity)
                phase = .instructions(until: until.isFinite ? until : nil)
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
    func setForStep(_ title: NoiseTagSettingTitles, _ value: NoiseTagSettingValue) {
        guard currentStep?.settings[title.rawValue] == nil else { return }
        saved.append((title, controller.settings.value(for: title)))
        do { try controller.settings.set(value: value, for: title) } catch { note("\(title.rawValue): \(error)") }
    }

    func stopTrials() {
        controller.trialsAreRunning = false
        participant?.look(at: nil)
    }

    func beginSpelling(mode: NoiseTagMode, until: Double) {
        keyboard.clear()
        if controller.mode != mode { controller.set(mode: mode, withExplanation: "session step \(index + 1): \(currentStep?.kind.name ?? "")") }
        controller.trialsAreRunning = true
        participant?.look(at: neededKeyObjectID())
        phase = .spelling(until: until)
    }

    /// The key the participant needs next: for copying, the text's next
    /// letter (or delete after a wrong one); for a simulated free speller, its own text's.
    func neededKey() -> String? {
        let text = spellingText
        guard !text.isEmpty else { return nil }
        return SpellingUser.choice(goal: text, typed: keyboard.typed, popupOpen: false)
    }

    func neededKeyObjectID() -> Int? {
        guard let name = neededKey() else { return nil }
        return keyboard.keys.first { $0.noiseTagging.identifier == name }?.noiseTagging.customUtopiaObjectID
    }

    func beginSignalCheck(seconds: Double, attempt: Int) {
        stopTrials()
        quality = []
        controller.set(mode: .signalQuality, withExplanation: "session step \(index + 1): signal check, attempt \(attempt)")
        phase = .signalCheck(until: controller.clock.now + seconds, attempt: attempt)
    }

    func judgeSignal(attempt: Int) {
        guard case .signalCheck(let seconds, let criteria, let onFailure, let attempts)? = currentStep?.kind else { return }
        let now = controller.clock.now
        let readings = SignalQualityTrace.dataReadings(quality)
        let channels = readings.map(\.count).max() ?? 0
        var rows: [JSONValue] = []
        var good = 0
        for channel in 0..<channels {
            let median = SignalQualityTrace.median(readings.compactMap { $0.count > channel ? $0[channel] : nil }) ?? 1
            let limit = criteria.limit(channel: channel + 1)
            let passed = median <= limit
            if passed { good += 1 }
            rows.append(.object(["channel": .number(Double(channel + 1)), "medianNoise": .number(median),
                                 "limit": .number(limit), "passed": .bool(passed)]))
        }
        let needed = criteria.minimumGoodChannels ?? max(channels, 1)
        let passed = channels > 0 && good >= needed
        var measures: [String: JSONValue] = ["attempts": .number(Double(attempt)), "seconds": .number(now - startTime),
                                             "goodChannels": .number(Double(good)), "neededChannels": .number(Double(needed)),
                                             "channels": .array(rows)]
        // A limit for a channel the amplifier lacks (counted from 0? a typing slip?) judged nothing: the result says so.
        let unused = criteria.channelMaxNoise.keys.filter { $0 > channels }.sorted()
        if channels > 0, !unused.isEmpty {
            let list = unused.map(String.init).joined(separator: ", ")
            measures["unusedChannelLimits"] = .array(unused.map { .number(Double($0)) })
            note("signal check: channelMaxNoise names channel \(list), but the amplifier has \(channels) channels (1-\(channels)): that limit judged nothing")
        }
        if passed {
            endStep("passed", measures: measures)
            return
        }
        // More good channels asked for than the amplifier has: no attempt can pass, so none is repeated.
        let impossible = channels > 0 && needed > channels
        let why = channels == 0 ? "no signal quality from the decoder (no EEG?)"
            : impossible ? "minGoodChannels is \(needed) but the amplifier has \(channels) channels, so no check can pass"
            : "\(good) of \(channels) channels passed, \(needed) needed"
        switch onFailure {
        case .repeat where attempt < attempts && !impossible:
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

    func endCalibration(now: Double) {
        var measures: [String: JSONValue] = ["trials": .number(Double(controller.settings.intFor(.nGenericTrainTrials))),
                                             "certaintyRequired": .number(controller.settings.doubleFor(.certaintyRequiredForPress)),
                                             "thresholdFromDecoder": .bool(!reports.thresholds.isEmpty)]
        if let accuracy = reports.calibrationAccuracy { measures["accuracy"] = .number(accuracy) }
        if let result = reports.calibrationResult, result.fitted, !result.summary.isEmpty { measures["decoderChose"] = .string(result.summary) }
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
    func close(_ outcome: String) {
        controller.trialsAreRunning = false
        participant?.look(at: nil)
        phase = .closing(outcome: outcome)
    }

    func endSpelling(_ outcome: String) {
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

    func answer(_ key: Int) {
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
    func endStep(_ outcome: String, measures: [String: JSONValue], stop: String? = nil) {
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

    func note(_ text: String) {
        notices.append(text)
        if notices.count > 50 { notices.removeFirst() }
    }
}
