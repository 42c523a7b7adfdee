import UtopiaProtocol

extension NoiseTagController {
    /// Frames of flicker rendered since the controller was made.
    ///
    /// ```swift
    /// let n = controller.flickerFramesRendered
    /// ```
    public var flickerFramesRendered: Int { stimulus.framesRendered }

    /// Reports a late frame from the frame loop: an event, and a sound event
    /// when `soundOnMissedFrame` is on.
    ///
    /// ```swift
    /// controller.reportMissedFrame(timing, skipped: 0)
    /// ```
    public func reportMissedFrame(_ timing: FrameTiming, skipped: Int) {
        emit(.missedFrame(index: timing.index, lateness: timing.lateness, skipped: skipped))
        if settings.boolFor(.soundOnMissedFrame) { emit(.sound(name: "missedFrame")) }
    }

    /// Loads the codebook named by `filenameNoiseTags` (the built-in one when
    /// empty). A bad file is reported and the previous codebook stays.
    func loadCodebook() {
        let path = settings.textFor(.filenameNoiseTags)
        if path.isEmpty {
            codebook = .standard
            codebookSource = "built-in"
        } else {
            do {
                codebook = try CodebookFile(contentsOfFile: path).codebook
                codebookSource = path
            } catch {
                emit(.refused(call: "filenameNoiseTags", reason: "\(error); keeping \(codebookSource) codebook"))
                return
            }
        }
        emit(.codebookLoaded(source: codebookSource, codes: codebook.count, length: codebook.length))
    }

    /// Shows the default look on the current unit's controls that do not flicker.
    func paintNonFlickering(_ trial: Trial) {
        guard let view = units.last?.view else { return }
        let palette = StimulusPalette(settings: settings)
        for control in view.allControls where trial.entry(for: control) == nil {
            control.setFlickerColor(control.noiseTagging.enabled ? palette.enabled : palette.disabled)
        }
    }

    /// Renders one flicker frame: each flickering control's state and colour
    /// for the frame due at `deadline`, and one STIMULUSEVENT to the decoder
    /// (object ID 0 carries the target's state in training). Cue and pause
    /// frames, and a second tick within the same frame, render nothing.
    /// Returns true when a STIMULUSEVENT was sent.
    @discardableResult
    func renderFrame(deadline: Double, now: Double) -> Bool {
        guard let trial, trial.phase == .flicker else { return false }
        if stimulus.trial != trial.number { prepareStimulus(for: trial, firstDeadline: deadline) }
        let period = 1 / Double(settings.intFor(.preferredNFramesPerSecond))
        let index = Int(((deadline - stimulus.firstDeadline) / period).rounded())
        guard index > stimulus.lastIndex else { return false }
        stimulus.lastIndex = index
        let bit = index / stimulus.framesPerBit
        let offset = stimulus.offset
        let hide = stimulus.hideNonTargets
        let target = trial.target?.control
        let palette = stimulus.palette
        for (k, entry) in trial.entries.enumerated() {
            var state = entry.code[bit % entry.code.count]
            if hide, entry.control !== target { state = 0 }
            stimulus.states[k + offset] = state
            entry.control.setFlickerColor(palette.color(forState: state))
        }
        if let target = trial.target, offset == 1 {
            stimulus.states[0] = target.code[bit % target.code.count]
        }
        stimulus.framesRendered += 1
        send(.stimulusEvent(StimulusEvent(timestamp: MonotonicClock.utopiaTimestamp(for: now),
                                          objIDs: stimulus.objIDs, objStates: stimulus.states)))
        return true
    }

    private func prepareStimulus(for trial: Trial, firstDeadline: Double) {
        let withTarget = trial.mode.isTraining && trial.target != nil
        stimulus.trial = trial.number
        stimulus.firstDeadline = firstDeadline
        stimulus.lastIndex = -1
        stimulus.offset = withTarget ? 1 : 0
        stimulus.objIDs = (withTarget ? [0] : []) + trial.entries.map { UInt8($0.objectID) }
        stimulus.states = Array(repeating: 0, count: stimulus.objIDs.count)
        stimulus.palette = StimulusPalette(settings: settings)
        stimulus.framesPerBit = settings.intFor(.framesPerBit)
        stimulus.hideNonTargets = trial.mode.isTraining && settings.boolFor(.hideNonTargetControls)
    }
}
