import UtopiaProtocol

extension NoiseTagController {
    /// Changes the mode: a running trial stops, MODECHANGE goes to the
    /// decoder, the delegate hears `respondToNoiseTagModeChange`. With
    /// `waitTillDecoderConfirms`, trials stay blocked until the decoder echoes
    /// the MODECHANGE or `modeConfirmationTimeout` passes (a
    /// ``NoiseTagEvent/Kind/modeConfirmed(mode:confirmed:)`` event says which).
    public func set(mode: NoiseTagMode, waitTillDecoderConfirms: Bool = false, withExplanation explanation: String? = nil) {
        let entered = access.enter()
        defer { access.leave(entered) }
        emitCall("setMode", value: mode.rawValue + (waitTillDecoderConfirms ? " wait" : ""))
        applyModeChange(to: mode, waitTillDecoderConfirms: waitTillDecoderConfirms, explanation: explanation)
    }

    func applyModeChange(to newMode: NoiseTagMode, waitTillDecoderConfirms: Bool, explanation: String?) {
        let old = mode
        stopTrial(.modeChange)
        if mode != newMode {
            engineSetsMode = true
            defer { engineSetsMode = false }
            try? settings.adopt(value: .text(newMode.rawValue), for: .mode)
        }
        modeDidChange(from: old, to: newMode, waitTillDecoderConfirms: waitTillDecoderConfirms, explanation: explanation)
    }

    /// What follows a change of mode, once the `mode` setting holds `newMode`.
    func modeDidChange(from old: NoiseTagMode, to newMode: NoiseTagMode, waitTillDecoderConfirms: Bool,
                       explanation: String?) {
        trialsInMode = 0
        zeroTrainPressed = false
        trainingOrder = []
        let now = engineNow
        if runningTrials { decoderIdle = false }
        // A watched decoder that has not answered yet gets the mode once it
        // connects (after SUBSCRIBE), so the handshake order holds.
        if decoderConnection != .connecting {
            send(.modeChange(ModeChange(timestamp: MonotonicClock.utopiaTimestamp(for: now), newMode: newMode.decoderModeString)))
        }
        if modeConfirmation != nil {
            modeConfirmation = nil
            removeEngineBlocks(.modeConfirmation)
        }
        if waitTillDecoderConfirms {
            modeConfirmation = (newMode, now + settings.doubleFor(.modeConfirmationTimeout))
            addBlock(.modeConfirmation, duration: nil)
        }
        recorder?.modeWillChange(from: old, to: newMode)
        emit(.modeChanged(from: old, to: newMode, explanation: explanation))
        if link == nil, newMode != .test {
            emit(.notice("\(newMode.rawValue) needs a decoder, but none is linked (decoderLink is nil): "
                         + "its trials run, nothing learns from them, and only touch presses count"))
        }
        units.last?.delegate.respondToNoiseTagModeChange(to: newMode)
    }

    /// Ends the wait for a mode confirmation when its time is up.
    func advanceModeConfirmation(now: Double) {
        guard let waiting = modeConfirmation, now >= waiting.deadline else { return }
        modeConfirmation = nil
        removeEngineBlocks(.modeConfirmation)
        emit(.modeConfirmed(mode: waiting.mode, confirmed: false))
    }

    /// Asks the decoder to discard its calibration: MODECHANGE `reset`. The
    /// engine's own mode does not change; calibrate again with a training mode.
    public func resetDecoderCalibration() {
        let entered = access.enter()
        defer { access.leave(entered) }
        emitCall("resetDecoderCalibration")
        stopTrial(.modeChange)
        send(.modeChange(ModeChange(timestamp: engineStamp, newMode: DecoderMode.reset.modeText)))
        emit(.notice("decoder asked to discard its calibration"))
    }

    /// Sends a LOG message to the decoder.
    public func sendDecoderALogMessageWith(text: String) {
        let entered = access.enter()
        defer { access.leave(entered) }
        send(.log(Log(timestamp: engineStamp, message: text)))
    }
}
