import UtopiaProtocol

extension NoiseTagController {
    /// Turns trials on and off. Turning them off stops a running trial
    /// without feedback and tells the decoder `idle`; turning them on again
    /// tells it the current mode. The delegate hears `trialsWillStartRunning` /
    /// `trialsStoppedRunning`.
    public var trialsAreRunning: Bool {
        get { access.read { runningTrials } }
        set {
            let entered = access.enter()
            defer { access.leave(entered) }
            guard newValue != runningTrials else { return }
            emitCall("trialsAreRunning", value: String(newValue))
            setTrialsRunning(newValue)
        }
    }

    /// Turns trials on or off (the app through ``trialsAreRunning``, or the engine itself).
    func setTrialsRunning(_ newValue: Bool) {
        guard newValue != runningTrials else { return }
        runningTrials = newValue
        emit(.trialsRunning(newValue))
        let stamp = engineStamp
        if newValue {
            if decoderIdle {
                decoderIdle = false
                send(.modeChange(ModeChange(timestamp: stamp, newMode: mode.decoderModeString)))
            }
            units.last?.delegate.trialsWillStartRunning()
        } else {
            stopTrial(.trialsOff)
            decoderIdle = true
            send(.modeChange(ModeChange(timestamp: stamp, newMode: "idle")))
            units.last?.delegate.trialsStoppedRunning()
        }
    }

    func startTrialIfPossible(now: Double) {
        let mode = self.mode
        guard runningTrials, trial == nil, feedback == nil, !blocks.isBlocked,
              mode.runsTrials, units.last != nil else { return }
        let controls = flickeringControls()
        guard !controls.isEmpty else {
            // Said once per update, so that an app whose screen stays still learns why.
            let reason = "no trial starts: no control of the current unit flickers (its view is empty, or every control's flickering is off)"
            if lastAssignmentError != reason {
                lastAssignmentError = reason
                emit(.notice(reason))
            }
            return
        }
        let slots: [CodeAssignment.Slot]
        do {
            slots = try CodeAssignment.assign(controls, codeCount: loadedCodebook.count,
                                              reversed: settings.boolFor(.assignNoiseTagsInReversedOrder))
        } catch {
            // Too few codes: which codebook, so that a file named in a settings file is found.
            var reason = error.description
            if case .notEnoughCodes = error { reason += " (\(loadedCodebookSource == "built-in" ? "the built-in codebook" : loadedCodebookSource))" }
            if lastAssignmentError != reason {
                lastAssignmentError = reason
                emit(.refused(call: "trial start", reason: reason))
            }
            return
        }
        // The state the trial starts from, before anything below draws from the generator.
        let verifyTargets = mode == .verify ? units.last?.delegate.idsOfControlsToIncludeAsTargetInVerifyMode() : nil
        let state = engineSnapshot(verifyTargets: verifyTargets)
        var book = loadedCodebook
        var shift: Int?
        if mode.isTraining, settings.boolFor(.randomlyTranslateNoiseTagsInTraining) {
            shift = Int(random.next() % UInt64(book.length))
            book = book.cyclicallyShifted(by: shift!)
        }
        let entries = zip(controls, slots).map {
            FlickerEntry(control: $0, objectID: $1.objectID, actions: $0.noiseTagging.actions, code: book.codes[$1.codeIndex])
        }
        var target: FlickerEntry?
        if mode.cuesTarget {
            target = chooseTarget(among: entries, verifyTargets: verifyTargets)
            guard target != nil else {
                if mode.isTraining {
                    applyModeChange(to: .test, waitTillDecoderConfirms: false, explanation: "training finished: no next target")
                }
                return
            }
        }
        trialCount += 1
        let first: TrialPhase = mode.cuesTarget ? .cue : .flicker
        let trial = Trial(number: trialCount, mode: mode, startTime: now,
                          startStamp: MonotonicClock.utopiaTimestamp(for: now), entries: entries,
                          codeIndices: slots.map(\.codeIndex), codeShift: shift,
                          target: target, flickerLimit: flickerLimit(), requiredCertainty: requiredCertainty(),
                          firstPhase: first)
        self.trial = trial
        send(.newTarget(NewTarget(timestamp: trial.startStamp)))
        // From here on app code runs (observers, the target's hooks) and may
        // stop the trial; each step goes on only while it is still the running one.
        emit(.trialStarted(.init(trial: trial.number, mode: trial.mode, target: target?.control.noiseTagName,
                                 targetObjectID: target?.objectID,
                                 controls: entries.map { $0.control.noiseTagName },
                                 objectIDs: entries.map(\.objectID), codes: trial.codeIndices,
                                 codeShift: shift, state: state)))
        guard self.trial === trial else { return }
        if first == .cue {
            emit(.trialPhase(trial: trial.number, phase: .cue))
            guard self.trial === trial, let target else { return }
            showFeedback(settings.colorFor(.colorTargetCue), on: target.control)
            // Stopped from inside the cue call: the stop's own "back to normal"
            // ran before the cue colour was set, so set it once more.
            if self.trial !== trial { showFeedback(nil, on: target.control) }
        } else {
            beginFlicker(trial, at: now)
        }
    }

    /// Moves the running trial through its phases up to `now` and ends it
    /// when a press, the time limit or a completed training flicker says so.
    func advanceTrial(now: Double) {
        guard let trial, !trial.isQuietFlicker(at: now) else { return }
        if trial.phase == .cue {
            let end = trial.phaseStart + settings.doubleFor(.cueDuration)
            guard now >= end else { return }
            trial.phase = .pause
            trial.phaseStart = end
            trial.pauseStart = end
            if let target = trial.target { showFeedback(nil, on: target.control) }
            guard self.trial === trial else { return }
            emit(.trialPhase(trial: trial.number, phase: .pause))
            guard self.trial === trial else { return }
        }
        if trial.phase == .pause {
            let end = trial.phaseStart + settings.doubleFor(.pauseAfterCue)
            guard now >= end else { return }
            beginFlicker(trial, at: end)
        }
        guard self.trial === trial, let flickerStart = trial.flickerStart else { return }
        let elapsed = now - flickerStart
        if !trial.mode.isTraining, let prediction = trial.latestPrediction,
           PressThreshold(required: trial.requiredCertainty).isMet(by: prediction.certainty), elapsed >= settings.doubleFor(.minTrialDuration),
           let entry = trial.entry(objectID: prediction.objectID), isPressable(entry.control) {
            press(entry, source: .brain, certainty: prediction.certainty)
            return
        }
        guard let limit = trial.flickerLimit, elapsed >= limit else { return }
        if trial.mode.isTraining {
            endTrial(.completed, pressed: nil, certainty: nil)
        } else if settings.boolFor(.disableNoClicks), let best = trial.mostLikely, isPressable(best.entry.control) {
            // Like a brain press, a timeout press goes only to a control that can be
            // pressed now (enabled and visible); otherwise the trial ends with no press.
            press(best.entry, source: .timeout, certainty: best.certainty)
        } else {
            showNoPress()
        }
    }

    /// Starts the flicker phase: each flickering control hears that noise
    /// tagging runs (with its object ID), the others show their default look.
    /// Should app code stop the trial meanwhile, nothing more starts and
    /// every control that heard "running" hears "stopped" after it.
    func beginFlicker(_ trial: Trial, at time: Double) {
        trial.phase = .flicker
        trial.phaseStart = time
        emit(.trialPhase(trial: trial.number, phase: .flicker))
        guard self.trial === trial else { return }
        // Set after the event: a stop from an observer then tells no control "stopped".
        trial.flickerStart = time
        let look = defaultLook()
        for entry in trial.entries {
            tellNoiseTagging(true, to: entry.control, objectID: entry.objectID, look: look)
            if self.trial !== trial {
                // The stop inside this call told every control "stopped" already,
                // this one possibly before its own "running" call returned.
                tellNoiseTagging(false, to: entry.control, objectID: nil, look: defaultLook())
                return
            }
        }
        paintNonFlickering(trial)
    }

    /// Stops the running trial mid-way: no feedback.
    func stopTrial(_ cause: TrialEnding.StopCause) {
        guard trial != nil else { return }
        endTrial(.stopped(cause), pressed: nil, certainty: nil)
    }

    /// Ends the running trial: flicker stops, the gap before the next trial
    /// begins, the delegate hears of it, and training may move on to Test.
    func endTrial(_ ending: TrialEnding, pressed: FlickerEntry?, certainty: Double?) {
        guard let trial else { return }
        self.trial = nil
        let now = engineNow
        if trial.phase == .cue, let target = trial.target { showFeedback(nil, on: target.control) }
        if trial.flickerStart != nil {
            let look = defaultLook()
            for entry in trial.entries { tellNoiseTagging(false, to: entry.control, objectID: nil, look: look) }
        }
        // The trial's line is queued before anyone hears of the end: a
        // process killed right after its app saw `trialEnded` keeps it.
        recorder?.record(trial.record(ending: ending, pressed: pressed, certainty: certainty, at: now))
        emit(.trialEnded(.init(trial: trial.number, mode: trial.mode, ending: ending,
                               target: trial.target?.control.noiseTagName,
                               pressed: pressed?.control.noiseTagName, duration: now - trial.startTime)))
        rememberEnded(trial, pressed: pressed)
        addBlock(.betweenTrials, duration: settings.doubleFor(.timeInBetweenTrials))
        units.last?.delegate.trialEnded(ending: ending, pressed: pressed?.control)
        if case .stopped = ending { return }
        trialsInMode += 1
        if case .pressed = ending, trial.mode == .zeroTrain { zeroTrainPressed = true }
        advanceModeAfterTrial(trial.mode)
    }

    /// Keeps the last 256 ended trials for a decoder's revision of one of them.
    private func rememberEnded(_ trial: Trial, pressed: FlickerEntry?) {
        var controls: [Int: String] = [:]
        for entry in trial.entries { controls[entry.objectID] = entry.control.noiseTagName }
        endedTrials[trial.startStamp] = (trial.number, controls, pressed?.control.noiseTagName)
        if endedTrials.count > 256, let oldest = endedTrials.min(by: { $0.value.number < $1.value.number }) {
            endedTrials[oldest.key] = nil
        }
    }

    private func advanceModeAfterTrial(_ mode: NoiseTagMode) {
        switch mode {
        case .trainGeneric where trialsInMode >= settings.intFor(.nGenericTrainTrials),
             .trainSimple where trialsInMode >= settings.intFor(.nSimpleTrainTrials),
             .zeroTrain where trialsInMode >= settings.intFor(.nZeroTrainTrials):
            applyModeChange(to: .test, waitTillDecoderConfirms: false,
                            explanation: "\(mode.rawValue) finished after \(trialsInMode) trials")
        case .trainCustom:
            if units.last?.delegate.thereWillBeANextTarget() == false {
                applyModeChange(to: .test, waitTillDecoderConfirms: false,
                                explanation: "TrainCustom finished after \(trialsInMode) trials")
            }
        case .dataCollection:
            let limit = settings.intFor(.nDataCollectionTrials)
            if limit > 0, trialsInMode >= limit {
                emit(.notice("DataCollection finished after \(trialsInMode) trials; trials stopped"))
                setTrialsRunning(false)
            }
        default:
            break
        }
    }

    private func flickerLimit() -> Double? {
        switch mode {
        case .trainGeneric, .trainCustom: return settings.doubleFor(.trialDurationGenericTrain)
        case .trainSimple: return settings.doubleFor(.trialDurationSimpleTrain)
        case .zeroTrain where !zeroTrainPressed: return settings.doubleFor(.maxDurationFirstZeroTrainClick)
        default:
            return settings.boolFor(.disableMaxTestTrialDuration) ? nil : settings.doubleFor(.maxTestTrialDuration)
        }
    }

    /// The certainty a prediction of a trial starting now must reach: the
    /// first-click setting in ZeroTrain before its first press, otherwise
    /// `certaintyRequiredForPress`.
    func requiredCertainty() -> Double {
        if mode == .zeroTrain, !zeroTrainPressed {
            return settings.doubleFor(.certaintyRequiredForFirstZeroTrainClick)
        }
        return settings.doubleFor(.certaintyRequiredForPress)
    }

    /// The cued target: balanced random order in TrainGeneric/TrainSimple,
    /// the delegate's choice in TrainCustom, a random allowed control in Verify.
    private func chooseTarget(among entries: [FlickerEntry], verifyTargets: [String]?) -> FlickerEntry? {
        switch mode {
        case .trainCustom:
            guard let wanted = units.last?.delegate.nextTarget() else { return nil }
            guard let entry = entries.first(where: { $0.control === wanted }) else {
                emit(.refused(call: "nextTarget()", reason: "'\(wanted.noiseTagName)' is not a flickering control of the current unit"))
                return nil
            }
            return entry
        case .verify:
            var candidates = entries
            if let ids = verifyTargets {
                candidates = entries.filter { ids.contains($0.control.noiseTagging.identifier ?? "") }
            }
            guard !candidates.isEmpty else {
                emit(.refused(call: "idsOfControlsToIncludeAsTargetInVerifyMode()", reason: "no flickering control has one of the listed identifiers"))
                return nil
            }
            return candidates[Int(random.next() % UInt64(candidates.count))]
        default:
            let present = Set(entries.map { ObjectIdentifier($0.control) })
            trainingOrder.removeAll { !present.contains($0) }
            if trainingOrder.isEmpty {
                trainingOrder = entries.map { ObjectIdentifier($0.control) }.shuffled(using: &random)
            }
            let next = trainingOrder.removeFirst()
            return entries.first { ObjectIdentifier($0.control) == next }
        }
    }
}
