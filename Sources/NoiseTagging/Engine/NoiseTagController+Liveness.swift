import UtopiaProtocol

extension NoiseTagController {
    /// The message ids the engine subscribes to: predictions (P, F), the
    /// threshold extension (T), revised selections (V, extension), mode confirmations (M), heartbeats (H), the
    /// decoder's log lines (L) and signal quality (Q).
    public static let subscribedMessageIDs = "PFTVCMHLQ"

    /// Whether the engine hears its decoder.
    public var decoderConnection: DecoderConnectionState {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard let link = self.link else { return .none }
        guard link.monitorsLiveness else { return .connected }
        return liveness.state == .none ? .connecting : liveness.state
    }

    /// Heartbeats out every `heartbeatInterval`; SUBSCRIBE with them until the
    /// decoder answers; silence for `decoderTimeout` stops and blocks trials
    /// until messages flow again. While no decoder answers, each attempt to
    /// reach one lasts `timeoutConnecting`: then "decoder not found" is
    /// reported, and after `timeInBetweenAttemptsToConnect` the link is asked
    /// to try again (``DecoderLink/reconnect()``) and SUBSCRIBE goes out at once.
    func advanceLiveness(now: Double, heard: Bool) {
        guard link?.monitorsLiveness == true else { return }
        if liveness.started == nil {
            liveness.started = now
            liveness.attemptStarted = now
            liveness.state = .connecting
            addBlock(.decoder, duration: nil)
            emit(.decoderConnection(state: .connecting, alarm: false))
        }
        if heard {
            liveness.lastHeard = now
            if liveness.state != .connected {
                liveness.state = .connected
                liveness.attemptStarted = nil
                liveness.retryAt = nil
                liveness.failedAttempts = 0
                removeEngineBlocks(.decoder)
                emit(.decoderConnection(state: .connected, alarm: false))
                greetDecoder(now: now)
            }
        } else if liveness.state == .connected, let last = liveness.lastHeard,
                  now - last > settings.doubleFor(.decoderTimeout) {
            liveness.state = .disconnected
            liveness.warnedSlowConnect = false
            liveness.attemptStarted = now
            stopTrial(.decoderLost)
            addBlock(.decoder, duration: nil)
            let alarm = settings.boolFor(.soundAlarmWhenDisconnecting) && settings.boolFor(.enableOtherSounds)
            emit(.decoderConnection(state: .disconnected, alarm: alarm))
            if alarm { emitOtherSound("decoderLost") }
        }
        if liveness.state != .connected { advanceConnectionAttempts(now: now) }
        if liveness.state != .connected, !liveness.warnedSlowConnect,
           now - (liveness.lastHeard ?? liveness.started ?? now) > settings.doubleFor(.durationAutoConnectBeforeWarningUser) {
            liveness.warnedSlowConnect = true
            emit(.notice("no decoder\(decoderPlace) has answered for \(settings.doubleFor(.durationAutoConnectBeforeWarningUser)) s; still trying"))
        }
        if liveness.lastHeartbeat.map({ now - $0 >= settings.doubleFor(.heartbeatInterval) }) ?? true {
            liveness.lastHeartbeat = now
            let stamp = MonotonicClock.utopiaTimestamp(for: now)
            if liveness.state != .connected {
                send(.subscribe(Subscribe(timestamp: stamp, messageIDs: Self.subscribedMessageIDs)))
            }
            send(.heartbeat(Heartbeat(timestamp: stamp)))
        }
    }

    /// The link completed a connection. While the decoder counts as
    /// connected, that is a decoder that came back before `decoderTimeout`
    /// (restarted on the same endpoint): it has not heard SUBSCRIBE or the
    /// mode, and it lost the trial's evidence. The trial stops as for a lost
    /// decoder, `decoderConnection` reports `connected` again, and SUBSCRIBE
    /// and the current MODECHANGE go out. A first connection, or one after a
    /// timeout, is greeted when the decoder is first heard, as always.
    func linkConnected(now: Double) {
        guard liveness.state == .connected else { return }
        stopTrial(.decoderLost)
        emit(.decoderConnection(state: .connected, alarm: false))
        greetDecoder(now: now)
    }

    /// SUBSCRIBE and the current mode, for a decoder just heard or just reconnected.
    private func greetDecoder(now: Double) {
        let stamp = MonotonicClock.utopiaTimestamp(for: now)
        send(.subscribe(Subscribe(timestamp: stamp, messageIDs: Self.subscribedMessageIDs)))
        send(.modeChange(ModeChange(timestamp: stamp, newMode: mode.decoderModeString)))
    }

    /// " at ENDPOINT" for the notices about a decoder that does not answer, when the link says where it looks.
    private var decoderPlace: String { link?.endpointDescription.map { " at \($0)" } ?? "" }

    /// Ends an attempt that got no answer within `timeoutConnecting` ("decoder
    /// not found") and starts the next one `timeInBetweenAttemptsToConnect` later.
    private func advanceConnectionAttempts(now: Double) {
        if let retryAt = liveness.retryAt {
            guard now >= retryAt else { return }
            liveness.retryAt = nil
            liveness.attemptStarted = now
            liveness.lastHeartbeat = nil           // SUBSCRIBE and a heartbeat go out at once
            link?.reconnect()
        } else if let started = liveness.attemptStarted, now - started >= settings.doubleFor(.timeoutConnecting) {
            liveness.failedAttempts += 1
            let pause = settings.doubleFor(.timeInBetweenAttemptsToConnect)
            liveness.retryAt = now + pause
            emit(.notice("decoder\(decoderPlace) not found: attempt \(liveness.failedAttempts) got no answer within "
                         + "\(settings.doubleFor(.timeoutConnecting)) s; trying again in \(pause) s"))
        }
    }
}
