import NoiseTagging

/// The delegate of a rebuilt unit: assigns each control the actions its
/// snapshot lists (at the same timings, doing nothing), and answers the
/// engine's questions as the recording says the app answered them.
public final class ReplayDelegate: NoiseTagDelegate {
    let controls: [ReplayControl]
    let verifyTargets: [String]?
    let customTarget: ReplayControl?
    let customTrainingGoesOn: Bool

    /// Creates the delegate.
    ///
    /// - Parameters:
    ///   - controls: the rebuilt controls, in the unit's order.
    ///   - verifyTargets: the app's `idsOfControlsToIncludeAsTargetInVerifyMode()` answer.
    ///   - customTarget: the TrainCustom target the app named for this trial.
    ///   - customTrainingGoesOn: the app's `thereWillBeANextTarget()` answer after it.
    public init(controls: [ReplayControl], verifyTargets: [String]?, customTarget: ReplayControl?, customTrainingGoesOn: Bool) {
        self.controls = controls
        self.verifyTargets = verifyTargets
        self.customTarget = customTarget
        self.customTrainingGoesOn = customTrainingGoesOn
    }

    public func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for control in controls {
            for timing in control.snapshot.actions { try? control.noiseTagging.addAction(timing: timing) {} }
        }
    }

    public func nextTarget() -> (any NoiseTagControl)? { customTarget }
    public func thereWillBeANextTarget() -> Bool { customTrainingGoesOn }
    public func idsOfControlsToIncludeAsTargetInVerifyMode() -> [String]? { verifyTargets }
}
