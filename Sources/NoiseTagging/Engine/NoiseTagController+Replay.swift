import Foundation
extension NoiseTagController {
    /// The state a trial starts from (see ``EngineSnapshot``), read just
    /// before the trial draws from the random generator.
    func engineSnapshot(verifyTargets: [String]?) -> EngineSnapshot {
        let controls = units.last?.view.allControls ?? []
        var order: [Int] = []
        for id in trainingOrder {
            if let index = controls.firstIndex(where: { ObjectIdentifier($0) == id }) { order.append(index) }
        }
        return EngineSnapshot(random: String(format: "%016llx", random.state),
                              trialsInMode: trialsInMode, zeroTrainPressed: zeroTrainPressed, trainingOrder: order,
                              decoderIdle: decoderIdle, explicitlySet: settings.explicitlySet.map(\.rawValue).sorted(),
                              watchesDecoder: link.map(\.monitorsLiveness), connection: decoderConnection.rawValue,
                              lastHeard: liveness.lastHeard, lastHeartbeat: liveness.lastHeartbeat,
                              watchStarted: liveness.started, codebook: codebookIdentity,
                              controls: controls.map(ControlSnapshot.init(of:)), verifyTargets: verifyTargets)
    }

    /// Puts the engine into the state a logged trial started from (its
    /// ``NoiseTagEvent/TrialStart/state``), as it stood just before the trial
    /// started, so that the next tick starts that trial again, with the same
    /// number: replay's entry point. Call it on a controller whose
    /// settings are those of that moment, with the rebuilt unit pushed and
    /// the decoder link set; trials are turned on without telling the
    /// decoder (it was told when they were turned on). Throws when the
    /// loaded codebook is not the one the trial used, or the snapshot is malformed.
    ///
    /// ```swift
    /// controller.push(view: rebuilt, forNoiseTaggingWithDelegate: replayDelegate)
    /// try controller.restore(start)
    /// clock.set(start.time); controller.tick(frame: firstFrame)   // the trial starts again
    /// ```
    public func restore(_ start: NoiseTagEvent.TrialStart) throws(NoiseTagError) {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard let snapshot = start.state else {
            throw .cannotRestore("trial \(start.trial) has no logged state (recorded by an engine before replay support)")
        }
        guard snapshot.codebook == codebookIdentity else {
            throw .cannotRestore("the trial used codebook \(snapshot.codebook), but \(loadedCodebookSource) (\(codebookIdentity)) is loaded")
        }
        guard let state = UInt64(snapshot.random, radix: 16) else {
            throw .cannotRestore("random state '\(snapshot.random)' is not 16 hex digits")
        }
        let controls = units.last?.view.allControls ?? []
        guard snapshot.trainingOrder.allSatisfy({ controls.indices.contains($0) }) else {
            throw .cannotRestore("training order \(snapshot.trainingOrder) names a control the unit does not have")
        }
        random = SeededGenerator(seed: state)
        trialCount = start.trial - 1
        trialsInMode = snapshot.trialsInMode
        zeroTrainPressed = snapshot.zeroTrainPressed
        trainingOrder = snapshot.trainingOrder.map { ObjectIdentifier(controls[$0]) }
        decoderIdle = snapshot.decoderIdle
        runningTrials = true
        var watch = DecoderLiveness()
        watch.state = DecoderConnectionState(rawValue: snapshot.connection) ?? .none
        watch.lastHeard = snapshot.lastHeard
        watch.lastHeartbeat = snapshot.lastHeartbeat
        watch.started = snapshot.watchStarted
        liveness = watch
    }
}
