import NoiseTagging

/// A control rebuilt from a ``ControlSnapshot``: same identifier, object ID
/// and flags, hidden when the original was; it paints nothing.
public final class ReplayControl: NoiseTagControl {
    public let noiseTagging: NoiseTagControlProperties
    /// The snapshot it was built from.
    public let snapshot: ControlSnapshot
    public var isHidden: Bool { snapshot.hidden }

    /// Rebuilds a control.
    public init(_ snapshot: ControlSnapshot) {
        self.snapshot = snapshot
        noiseTagging = NoiseTagControlProperties(identifier: snapshot.identifier, customUtopiaObjectID: snapshot.objectID,
                                                 participatesInFlickering: snapshot.participates,
                                                 enabled: snapshot.enabled, playClickSoundOnPress: snapshot.clickSound)
    }
}
