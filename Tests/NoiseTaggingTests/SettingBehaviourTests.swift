import Testing
import UtopiaProtocol
@testable import NoiseTagging

/// Settings whose meaning issue 10 gave them: each one changes what a user notices.
@Suite("Setting behaviour")
struct SettingBehaviourTests {
    private func notices(_ h: EngineHarness, containing text: String) -> [Double] {
        h.events.compactMap { if case .notice(let n) = $0.kind, n.contains(text) { return $0.time } else { return nil } }
    }

    private func subscribeTimes(_ h: EngineHarness, _ sent: [(Double, UtopiaMessage)]) -> [Double] {
        sent.compactMap { if case .subscribe = $0.1 { return $0.0 } else { return nil } }
    }

    @Test("showNoiseTagIDsOnControls: each flickering control is told its object ID and to show it; cleared when it stops")
    func showIDs() throws {
        for on in [true, false] {
            let h = try EngineHarness { try $0.set(value: on, for: .showNoiseTagIDsOnControls) }
            h.buttons[2].noiseTagging.customUtopiaObjectID = 9
            h.start()
            let hints = h.buttons.map(\.noiseTagging.renderHints)
            #expect(hints.map(\.objectID) == [1, 2, 9, 3])
            #expect(hints.allSatisfy { $0.showsObjectID == on })
            h.controller.blockTrials()
            #expect(h.buttons.allSatisfy { $0.noiseTagging.renderHints == NoiseTagRenderHints() })
        }
    }

    @Test("labeledButtonsOnlyPartlyFlicker: labelled controls are told to flicker only their border, unlabelled ones are not")
    func partlyFlicker() throws {
        for on in [true, false] {
            let h = try EngineHarness(buttons: 2) { try $0.set(value: on, for: .labeledButtonsOnlyPartlyFlicker) }
            h.buttons[1].label = ""
            h.start()
            #expect(h.buttons[0].isLabelled && !h.buttons[1].isLabelled)
            #expect(h.buttons[0].noiseTagging.renderHints.flickersOnlyBorder == on)
            #expect(!h.buttons[1].noiseTagging.renderHints.flickersOnlyBorder)
        }
    }

    @Test("enableOtherSounds off: no missed-frame sound and no disconnect alarm, the click on press stays")
    func otherSounds() throws {
        for on in [true, false] {
            let h = try EngineHarness(monitorsLiveness: true) {
                try $0.set(value: on, for: .enableOtherSounds)
                try $0.set(value: true, for: .soundOnMissedFrame)
            }
            h.start()
            h.heartbeat()
            h.run(for: 0.1)
            h.controller.reportMissedFrame(FrameTiming(index: 5, deadline: 0, time: 0.1, period: 1.0 / 60), skipped: 0)
            h.controller.touchPress(h.buttons[0])
            h.run(for: 4)
            let sounds = h.kinds.compactMap { if case .sound(let name) = $0 { return name } else { return nil } }
            #expect(sounds == (on ? ["missedFrame", "decoderLost"] : []))
            #expect(h.kinds.contains(.decoderConnection(state: .disconnected, alarm: on)))
            #expect(h.kinds.contains(.clickSound(control: "b1")))
        }
    }

    @Test("timeoutConnecting and timeInBetweenAttemptsToConnect: 'decoder not found' after each attempt, a new attempt after the pause")
    func connectionAttempts() throws {
        let h = try EngineHarness(monitorsLiveness: true) {
            try $0.set(value: 2, for: .timeoutConnecting)
            try $0.set(value: 1.5, for: .timeInBetweenAttemptsToConnect)
            try $0.set(value: 60, for: .durationAutoConnectBeforeWarningUser)
        }
        var sent: [(Double, UtopiaMessage)] = []
        h.link.onSend = { [unowned h] in sent.append((h.clock.now, $0)) }
        h.start()
        h.run(until: 1.99)
        #expect(notices(h, containing: "decoder not found").isEmpty)
        h.run(until: 2)
        #expect(notices(h, containing: "decoder not found") == [2])
        h.run(until: 3.49)
        #expect(h.link.reconnectRequests == 0)
        h.run(until: 3.5)
        #expect(h.link.reconnectRequests == 1)
        #expect(subscribeTimes(h, sent).contains(3.5), "the new attempt subscribes at once")
        h.run(until: 5.5)
        #expect(notices(h, containing: "decoder not found") == [2, 5.5])
        #expect(h.link.reconnectRequests == 1)
        h.heartbeat()
        h.run(for: 2)                                   // past the retry due at t=7 had nothing answered
        #expect(h.controller.decoderConnection == .connected)
        #expect(notices(h, containing: "decoder not found").count == 2, "no attempts once connected")
        #expect(h.link.reconnectRequests == 1)
    }

    @Test("the notices about a decoder that does not answer name where the link looks for it")
    func noticesNameTheEndpoint() throws {
        let h = try EngineHarness(monitorsLiveness: true) {
            try $0.set(value: 2, for: .timeoutConnecting)
            try $0.set(value: 1, for: .durationAutoConnectBeforeWarningUser)
        }
        h.link.endpointDescription = "tcp://no.such.host.invalid:5555"
        h.start()
        h.run(until: 2.5)
        #expect(notices(h, containing: "no decoder at tcp://no.such.host.invalid:5555 has answered for 1.0 s").count == 1)
        #expect(notices(h, containing: "decoder at tcp://no.such.host.invalid:5555 not found: attempt 1").count == 1)
    }

    @Test("attempts start again when a connected decoder is lost")
    func attemptsAfterLoss() throws {
        let h = try EngineHarness(monitorsLiveness: true) {
            try $0.set(value: 1, for: .timeoutConnecting)
            try $0.set(value: 1, for: .timeInBetweenAttemptsToConnect)
        }
        h.start()
        h.heartbeat()
        h.run(until: 3.02)                              // silent after t=0: lost after decoderTimeout 3 s
        #expect(h.controller.decoderConnection == .disconnected)
        #expect(h.link.reconnectRequests == 0)
        h.run(until: 5.1)
        #expect(notices(h, containing: "decoder not found").count == 1)
        #expect(h.link.reconnectRequests == 1)
    }

    @Test("durationAutoConnectBeforeWarningUser sets when the user is warned of a slow connection")
    func warningDelay() throws {
        let h = try EngineHarness(monitorsLiveness: true) { try $0.set(value: 2, for: .durationAutoConnectBeforeWarningUser) }
        h.start()
        h.run(until: 1.9)
        #expect(notices(h, containing: "no decoder has answered").isEmpty)
        h.run(until: 2.1)
        #expect(notices(h, containing: "no decoder has answered").count == 1)
    }

    @Test("twoFingerDoubleTapOpensDeveloperScreen: the developer gesture opens the panel only while it is on")
    func developerGesture() throws {
        let h = EngineHarness()
        let opened = { h.kinds.filter { $0 == .lifecycle(.developerPanelOpened) }.count }
        #expect(h.controller.developerPanelGestureRecognized())
        #expect(opened() == 1)
        try h.settings.set(value: false, for: .twoFingerDoubleTapOpensDeveloperScreen)
        #expect(!h.controller.developerPanelGestureRecognized())
        #expect(opened() == 1)
        #expect(h.refusals.contains { $0.contains("twoFingerDoubleTapOpensDeveloperScreen is off") })
    }

    @Test("certaintyRequiredForFirstZeroTrainClick sets the certainty of the first ZeroTrain press")
    func firstZeroTrainCertainty() throws {
        let h = try EngineHarness { try $0.set(value: 0.9, for: .certaintyRequiredForFirstZeroTrainClick) }
        h.start(in: .zeroTrain)
        h.run(until: 2)
        h.predict(objectID: 1, perr: 0.05)              // 0.95: refused at the default 0.99
        h.run(for: 0.1)
        #expect(h.presses.count == 1)
    }

    @Test("maxDurationFirstZeroTrainClick sets how long the first ZeroTrain trial may flicker")
    func firstZeroTrainDuration() throws {
        let h = try EngineHarness { try $0.set(value: 2, for: .maxDurationFirstZeroTrainClick) }
        h.start(in: .zeroTrain)
        h.run(until: 1.99)
        #expect(h.trialEnds.isEmpty)
        h.run(until: 2.01)
        #expect(h.trialEnds.map(\.ending) == [.noPress])
    }

    @Test("touchFeedbackDuration sets how long touch feedback shows")
    func touchFeedback() throws {
        let h = try EngineHarness { try $0.set(value: 0.8, for: .touchFeedbackDuration) }
        h.start()
        h.controller.touchPress(h.buttons[0])
        h.run(for: 0.79)
        #expect(h.controller.isShowingFeedback)
        h.run(for: 0.02)
        #expect(!h.controller.isShowingFeedback)
    }

    @Test("heartbeatInterval sets how often heartbeats go out")
    func heartbeats() throws {
        let h = try EngineHarness(monitorsLiveness: true) { try $0.set(value: 0.5, for: .heartbeatInterval) }
        h.start()
        h.run(until: 2.2)
        let beats = h.link.sent.filter { if case .heartbeat = $0 { return true } else { return false } }
        #expect(beats.count == 5, "about t = 0, 0.5, 1, 1.5, 2 (each on the first tick at or after its time); 3 at the default 1 s")
    }

    @Test("decoderTimeout sets how long a silent decoder counts as connected")
    func timeout() throws {
        let h = try EngineHarness(monitorsLiveness: true) { try $0.set(value: 1, for: .decoderTimeout) }
        h.start()
        h.heartbeat()
        h.run(until: 0.99)
        #expect(h.controller.decoderConnection == .connected)
        h.run(until: 1.1)
        #expect(h.controller.decoderConnection == .disconnected)
    }

    @Test("modeConfirmationTimeout sets how long trials wait for the decoder to confirm a mode")
    func modeConfirmationWait() throws {
        try EngineHarness { try $0.set(value: 0.5, for: .modeConfirmationTimeout) }.expectUnconfirmedTestModeWaits(0.5)
    }

    @Test("colorBitOffIfMaxContrast sets the colour of a 0 bit")
    func offColour() throws {
        let blue = NoiseTagColor(hex: "#0000FF")!
        let h = try EngineHarness { try $0.set(value: "#0000FF", for: .colorBitOffIfMaxContrast) }
        h.start()
        let book = h.controller.codebook
        #expect(h.buttons.indices.contains { book.codes[$0][0] == 0 }, "some control shows a 0 bit on the first frame")
        for (k, button) in h.buttons.enumerated() where book.codes[k][0] == 0 {
            #expect(button.flickerColor == blue)
        }
    }
}
