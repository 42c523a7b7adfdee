/// The app's side of a unit: assigns actions and hears about trials.
///
/// Every member is optional (has a default). The one nearly every app
/// implements is ``startNoiseTagControlOn(noiseTaggingView:)``, where
/// actions are assigned.
///
/// ```swift
/// final class Menu: NoiseTagDelegate {
///     func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
///         try? okButton.noiseTagging.addAction(timing: 1) { confirm() }
///     }
/// }
/// ```
public protocol NoiseTagDelegate: AnyObject {
    /// Called in every update: assign the controls' actions here.
    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView)
    /// A background colour for the view while noise tagging: the default look
    /// of its enabled controls instead of `defaultColorButtonEnabled` (a
    /// control's own ``NoiseTagControl/customBackgroundColor`` comes first);
    /// nil for the setting. Asked whenever the engine shows a default look.
    func customBackgroundColorFor(noiseTaggingView view: NoiseTagView) -> NoiseTagColor?
    /// The maximum trial duration ran out and nothing was pressed.
    func respondToNoClick()
    /// `trialsAreRunning` became true.
    func trialsWillStartRunning()
    /// `trialsAreRunning` became false.
    func trialsStoppedRunning()
    /// A trial ended, with its ending and the pressed control (if any).
    func trialEnded(ending: TrialEnding, pressed: (any NoiseTagControl)?)
    /// The mode changed.
    func respondToNoiseTagModeChange(to mode: NoiseTagMode)
    /// TrainCustom: the control to cue in the next training trial (nil ends training).
    func nextTarget() -> (any NoiseTagControl)?
    /// TrainCustom: false when training should end after the current trial.
    func thereWillBeANextTarget() -> Bool
    /// Verify: identifiers of the controls that may be targets (nil: all eligible).
    func idsOfControlsToIncludeAsTargetInVerifyMode() -> [String]?
    /// A short description of the unit, for recordings and events.
    func contextDescription() -> String?
}

extension NoiseTagDelegate {
    public func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {}
    public func customBackgroundColorFor(noiseTaggingView view: NoiseTagView) -> NoiseTagColor? { nil }
    public func respondToNoClick() {}
    public func trialsWillStartRunning() {}
    public func trialsStoppedRunning() {}
    public func trialEnded(ending: TrialEnding, pressed: (any NoiseTagControl)?) {}
    public func respondToNoiseTagModeChange(to mode: NoiseTagMode) {}
    public func nextTarget() -> (any NoiseTagControl)? { nil }
    public func thereWillBeANextTarget() -> Bool { true }
    public func idsOfControlsToIncludeAsTargetInVerifyMode() -> [String]? { nil }
    public func contextDescription() -> String? { nil }
}
