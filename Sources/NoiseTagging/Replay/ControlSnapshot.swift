/// One control of the current unit as it stood when a trial started: what
/// replay needs to rebuild it (everything that decides whether and how it
/// flickers and whether it can be pressed).
public struct ControlSnapshot: Equatable, Codable, Sendable {
    /// The control's identifier (nil when it has none).
    public var identifier: String?
    /// Its `customUtopiaObjectID`, nil for the next free one.
    public var objectID: Int?
    /// `participatesInFlickering`.
    public var participates: Bool
    /// `enabled`.
    public var enabled: Bool
    /// `isHiddenOrInHiddenContainer`.
    public var hidden: Bool
    /// The timing of each assigned action, in the order added.
    public var actions: [Double]
    /// `playClickSoundOnPress`.
    public var clickSound: Bool

    /// Creates a snapshot.
    public init(identifier: String?, objectID: Int?, participates: Bool, enabled: Bool, hidden: Bool,
                actions: [Double], clickSound: Bool) {
        self.identifier = identifier
        self.objectID = objectID
        self.participates = participates
        self.enabled = enabled
        self.hidden = hidden
        self.actions = actions
        self.clickSound = clickSound
    }

    /// A snapshot of `control` now.
    public init(of control: any NoiseTagControl) {
        let p = control.noiseTagging
        self.init(identifier: p.identifier, objectID: p.customUtopiaObjectID, participates: p.participatesInFlickering,
                  enabled: p.enabled, hidden: control.isHiddenOrInHiddenContainer, actions: p.actions.map(\.timing),
                  clickSound: p.playClickSoundOnPress)
    }
}
