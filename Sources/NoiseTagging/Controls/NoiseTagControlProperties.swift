/// The noise-tagging properties every ``NoiseTagControl`` carries.
public final class NoiseTagControlProperties {
    /// A name for the control in events, recordings and the verify-mode target list.
    public var identifier: String?
    /// A fixed Utopia object ID (1…255) instead of the next free one; above
    /// 127 no prediction can name it (a signed byte), only a touch presses it.
    public var customUtopiaObjectID: Int?
    /// False keeps the control out of flickering (it shows its default look).
    public var participatesInFlickering: Bool
    /// False: not flickering, not pressable.
    public var enabled: Bool
    /// False silences the click sound for this control.
    public var playClickSoundOnPress: Bool

    /// The actions assigned in the current update, in the order added.
    public private(set) var actions: [NoiseTagAction] = []

    /// The colour of the control's default look (not flickering, no
    /// feedback), as the engine last worked it out just before calling one of
    /// the control's methods: the control's own
    /// ``NoiseTagControl/customBackgroundColor``, else the current delegate's
    /// `customBackgroundColorFor(noiseTaggingView:)`, else
    /// `defaultColorButtonEnabled`; `defaultColorButtonDisabled` when the
    /// control is disabled. The defaults of
    /// ``NoiseTagControl/setFeedbackColor(_:)`` (for nil) and
    /// ``NoiseTagControl/noiseTaggingDidChange(isRunning:)`` paint it.
    public internal(set) var defaultColor = NoiseTagColor(red: 140.0 / 255, green: 140.0 / 255, blue: 140.0 / 255)  // #8C8C8C, the setting's default

    /// What a renderer should draw besides the colours (object ID, border-only
    /// flicker), set by the engine when the control starts and stops flickering.
    public internal(set) var renderHints = NoiseTagRenderHints()

    /// The container the control sits in (set by ``NoiseTagView/add(_:)``).
    public internal(set) weak var container: NoiseTagView?

    /// The controller whose update is allowed to assign actions (set by the engine).
    weak var controller: NoiseTagController?

    /// Creates the properties with the reference's defaults.
    public init(identifier: String? = nil, customUtopiaObjectID: Int? = nil,
                participatesInFlickering: Bool = true, enabled: Bool = true,
                playClickSoundOnPress: Bool = true) {
        self.identifier = identifier
        self.customUtopiaObjectID = customUtopiaObjectID
        self.participatesInFlickering = participatesInFlickering
        self.enabled = enabled
        self.playClickSoundOnPress = playClickSoundOnPress
    }

    /// Adds an action that runs when the control is pressed, at `timing` (0…1)
    /// of the press feedback. Allowed only inside an update (the delegate's
    /// `startNoiseTagControlOn(noiseTaggingView:)` or `updateControls`);
    /// anywhere else it throws and the controller reports a refused call.
    public func addAction(timing: Double = 0, closure: @escaping () -> Void) throws(NoiseTagError) {
        let name = identifier ?? "unnamed control"
        guard timing.isFinite, (0...1).contains(timing) else {
            let error = NoiseTagError.actionTimingOutOfRange(control: name, timing: timing)
            controller?.reportRefused(error)
            throw error
        }
        guard let controller, controller.isUpdating else {
            let error = NoiseTagError.actionOutsideUpdate(control: name)
            controller?.reportRefused(error)
            throw error
        }
        actions.append(NoiseTagAction(timing: timing, closure: closure))
    }

    /// Deletes every action (done by the engine at the start of each update).
    func removeAllActions() { actions.removeAll() }
}
