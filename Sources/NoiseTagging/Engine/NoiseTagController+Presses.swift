import UtopiaProtocol

extension NoiseTagController {
    /// A touch (or key) press on `control`, like a finger on the button: it
    /// ends a running trial, shows touch feedback and runs the control's
    /// actions. Refused (and reported) for a control that is not enabled and
    /// visible in the current unit, or while feedback is showing. Returns
    /// whether the press was taken.
    @discardableResult
    public func touchPress(_ control: any NoiseTagControl) -> Bool {
        let entered = access.enter()
        defer { access.leave(entered) }
        let name = control.noiseTagName
        emitCall("touchPress", control: control)
        guard feedback == nil else {
            reportRefused(.touchNotTaken(control: name, reason: "feedback of the previous press is showing"))
            return false
        }
        guard let view = units.last?.view, view.allControls.contains(where: { $0 === control }) else {
            reportRefused(.touchNotTaken(control: name, reason: "the control is not in the current unit"))
            return false
        }
        guard isPressable(control) else {
            reportRefused(.touchNotTaken(control: name, reason: "the control is disabled or hidden"))
            return false
        }
        // Between trials a control has only its custom ID, and one out of range (refused at trial start) is none.
        let custom = control.noiseTagging.customUtopiaObjectID.flatMap { CodeAssignment.validIDs.contains($0) ? $0 : nil }
        let entry = trial?.entry(for: control)
            ?? FlickerEntry(control: control, objectID: custom ?? 0, actions: control.noiseTagging.actions)
        press(entry, source: .touch, certainty: nil)
        return true
    }

    /// A touch at `point`: presses the first enabled, visible control of the
    /// current unit whose hit test says yes. Returns that control when the
    /// press was taken; nil when no control was hit or the press was
    /// refused (while feedback shows: reported as a `refused` event).
    @discardableResult
    public func touch(at point: NoiseTagPoint) -> (any NoiseTagControl)? {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard let view = units.last?.view else { return nil }
        guard let control = view.allControls.first(where: { isPressable($0) && $0.hitTest(point) }) else { return nil }
        return touchPress(control) ? control : nil
    }

    func isPressable(_ control: any NoiseTagControl) -> Bool {
        control.noiseTagging.enabled && !control.isHiddenOrInHiddenContainer
    }

    /// A press: the trial ends, SELECTION goes to the decoder, feedback shows,
    /// actions run at their timing, a click sound is asked for.
    func press(_ entry: FlickerEntry, source: PressSource, certainty: Double?) {
        let now = engineNow
        let current = trial
        emit(.press(.init(trial: current?.number, control: entry.control.noiseTagName,
                          objectID: entry.objectID == 0 ? nil : entry.objectID, source: source,
                          certainty: certainty, target: current?.target?.control.noiseTagName)))
        if entry.objectID > 0 {
            send(.selection(Selection(timestamp: MonotonicClock.utopiaTimestamp(for: now), objID: UInt8(entry.objectID))))
        }
        if current != nil { endTrial(.pressed(source), pressed: entry, certainty: certainty) }
        if settings.boolFor(.clickSoundOnPress), entry.control.noiseTagging.playClickSoundOnPress {
            emit(.clickSound(control: entry.control.noiseTagName))
        }
        let duration = settings.doubleFor(source == .touch ? .touchFeedbackDuration : .feedbackDuration)
        let mode = ClickFeedbackMode(rawValue: settings.textFor(.clickFeedbackMode)) ?? .none
        let pending = entry.actions.sorted { $0.timing < $1.timing }.map {
            PressFeedback.PendingAction(due: now + $0.timing * duration, timing: $0.timing,
                                        control: entry.control.noiseTagName, closure: $0.closure)
        }
        startFeedback(PressFeedback(start: now, duration: duration, mode: mode, source: source,
                                    pressed: entry.control, touched: [], pending: pending))
    }

    /// The maximum trial duration ran out with nothing pressed.
    func showNoPress() {
        guard let trial else { return }
        emit(.noPress(trial: trial.number))
        let entries = trial.entries
        endTrial(.noPress, pressed: nil, certainty: nil)
        var feedback = PressFeedback(start: engineNow, duration: settings.doubleFor(.feedbackDuration),
                                     mode: .nonselectedGray, source: nil, pressed: nil, touched: [], pending: [])
        let gray = settings.colorFor(.colorButtonNotPressedFeedback)
        let look = defaultLook()
        for entry in entries {
            showFeedback(gray, on: entry.control, look: look)
            feedback.touched.append(entry.control)
        }
        startFeedback(feedback, painted: true)
        units.last?.delegate.respondToNoClick()
    }

    private func startFeedback(_ new: PressFeedback, painted: Bool = false) {
        var feedback = new
        if !painted { paint(&feedback) }
        self.feedback = feedback
        addBlock(.feedback, duration: nil)
        emit(.feedbackStarted(mode: feedback.mode, source: feedback.source, duration: feedback.duration))
        advanceFeedback(now: engineNow)
    }

    /// Paints the press feedback: brain and timeout presses follow the mode
    /// fully (NonselectedGray: the pressed control white, the others gray);
    /// a touch only changes the pressed control.
    private func paint(_ feedback: inout PressFeedback) {
        guard let pressed = feedback.pressed, feedback.mode != .none else { return }
        let highlight = settings.colorFor(.colorBitOnIfMaxContrast)
        let look = defaultLook()
        switch (feedback.mode, feedback.source) {
        case (.nonselectedGray, .touch?), (.selectedAnimates, .touch?):
            showFeedback(highlight, on: pressed, look: look)
            feedback.touched.append(pressed)
        case (.nonselectedGray, _):
            showFeedback(highlight, on: pressed, look: look)
            feedback.touched.append(pressed)
            let gray = settings.colorFor(.colorButtonNotPressedFeedback)
            for control in units.last?.view.allControls ?? [] where control !== pressed {
                showFeedback(gray, on: control, look: look)
                feedback.touched.append(control)
            }
        case (.selectedAnimates, _):
            showFeedback(highlight, on: pressed, look: look)
            feedback.touched.append(pressed)
        case (.redBorder, _):
            showFeedback(.red, on: pressed, look: look)
            feedback.touched.append(pressed)
        case (.none, _):
            break
        }
    }

    /// Runs due actions, animates, and ends the feedback when its time is up.
    /// Actions due at the end (timing 1) run once the feedback has ended and
    /// the controls have their normal look again.
    func advanceFeedback(now: Double) {
        guard var current = feedback else { return }
        while let next = current.pending.first, next.due <= now, next.due < current.end {
            current.pending.removeFirst()
            feedback = current
            next.closure()
            emit(.actionRan(control: next.control, timing: next.timing))
            guard let refreshed = feedback else { return }
            current = refreshed
        }
        if current.mode == .selectedAnimates, current.source != .touch, let pressed = current.pressed {
            let on = Int(((now - current.start) / 0.125).rounded(.down)) % 2 == 0
            if on != current.animationOn {
                current.animationOn = on
                showFeedback(on ? settings.colorFor(.colorBitOnIfMaxContrast) : nil, on: pressed)
            }
        }
        feedback = current
        guard now >= current.end else { return }
        feedback = nil
        let look = defaultLook()
        for control in current.touched { showFeedback(nil, on: control, look: look) }
        removeEngineBlocks(.feedback)
        emit(.feedbackEnded)
        for action in current.pending {
            action.closure()
            emit(.actionRan(control: action.control, timing: action.timing))
        }
    }
}
