import UtopiaProtocol

extension NoiseTagController {
    /// Frames of flicker rendered since the controller was made.
    public var flickerFramesRendered: Int { access.read { stimulus.framesRendered } }

    /// Reports a late frame from the frame loop: an event, and a sound event
    /// when `soundOnMissedFrame` and `enableOtherSounds` are on.
    public func reportMissedFrame(_ timing: FrameTiming, skipped: Int) {
        let entered = access.enter()
        defer { access.leave(entered) }
        emit(.missedFrame(index: timing.index, lateness: timing.lateness, skipped: skipped))
        if settings.boolFor(.soundOnMissedFrame) { emitOtherSound("missedFrame") }
    }

    /// Loads the codebook named by `filenameNoiseTags` (the built-in one when
    /// empty). A bad file is reported and the previous codebook stays.
    func loadCodebook() {
        let path = settings.textFor(.filenameNoiseTags)
        do {
            loadedCodebook = try NoiseTagSettings.codebook(named: path)
            loadedCodebookSource = path.isEmpty ? "built-in" : path
            codebookIdentity = loadedCodebook.identity
        } catch {
            emit(.refused(call: "filenameNoiseTags", reason: "\(error); keeping \(loadedCodebookSource) codebook"))
            return
        }
        emit(.codebookLoaded(source: loadedCodebookSource, codes: loadedCodebook.count, length: loadedCodebook.length))
    }

    /// Shows the default look on the current unit's controls that do not flicker.
    func paintNonFlickering(_ trial: Trial) {
        guard let view = units.last?.view else { return }
        let look = defaultLook()
        for control in view.allControls where trial.entry(for: control) == nil {
            let color = look.color(for: control)
            control.noiseTagging.defaultColor = color
            control.setFlickerColor(color)
        }
    }

    /// Renders one flicker frame: each flickering control's state and colour
    /// for `frame` (its index comes from the frame loop), and one STIMULUSEVENT to the decoder
    /// (object ID 0 carries the target's state in training). Cue and pause
    /// frames, and a second tick within the same frame, render nothing.
    /// Returns true when a STIMULUSEVENT was sent.
    ///
    /// The frame's states are one row of the trial's codes, copied in place;
    /// the controls whose state changed are painted from them, in order,
    /// with the painter moved out of the controller's state (a control may
    /// call the controller).
    @discardableResult
    func renderFrame(_ frame: FrameTiming, now: Double) -> Bool {
        guard let trial, trial.phase == .flicker else { return false }
        let number = trial.number
        if stimulus.trial != number { prepareStimulus(for: trial) }
        guard stimulus.enter(frame: frame.index) else { return false }
        let states = stimulus.states
        if var painter = stimulus.painter.take() {
            painter.paint(states: states)
            // Put the painter back unless a control started another flicker meanwhile.
            if stimulus.trial == number, stimulus.painter == nil { stimulus.painter = painter }
            if self.trial !== trial {
                // A control stopped the trial while being painted: the controls
                // painted after the stop show their default look again, and
                // the frame is not sent.
                let look = defaultLook()
                for entry in trial.entries { tellNoiseTagging(false, to: entry.control, objectID: nil, look: look) }
                return false
            }
        }
        stimulus.framesRendered += 1
        send(.stimulusEvent(StimulusEvent(timestamp: MonotonicClock.utopiaTimestamp(for: now),
                                          objIDs: stimulus.objIDs, objStates: states)))
        return true
    }

    private func prepareStimulus(for trial: Trial) {
        let withTarget = trial.sendsTargetState
        let hide = trial.mode.isTraining && settings.boolFor(.hideNonTargetControls)
        let target = trial.target
        stimulus.trial = trial.number
        stimulus.firstIndex = nil
        stimulus.lastIndex = .min
        stimulus.offset = withTarget ? 1 : 0
        stimulus.objIDs = (withTarget ? [0] : []) + trial.entries.map { UInt8($0.objectID) }
        let codes = trial.entries.map { entry in
            hide && entry.control !== target?.control ? [UInt8](repeating: 0, count: entry.code.count) : entry.code
        }
        stimulus.load(codes: (withTarget ? [target?.code ?? []] : []) + codes)
        let palette = StimulusPalette(settings: settings)
        stimulus.painter = FlickerPainter(controls: trial.entries.map(\.control), offset: stimulus.offset,
                                          on: palette.bitOn, off: palette.bitOff)
        stimulus.framesPerBit = settings.intFor(.framesPerBit)
    }
}
