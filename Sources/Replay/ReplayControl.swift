import NoiseTagging

/// A control rebuilt from a ``ControlSnapshot``: same identifier, object ID
/// and flags, hidden when the original was; it paints nothing.
///
/// ```swift
/// let control = ReplayControl(ControlSnapshot(of: okButton))
/// view.add(control)
/// ```
public final class ReplayControl: NoiseTagControl {
    public let noiseTagging: NoiseTagControlProperties
    /// The snapshot it was built from.
    public let snapshot: ControlSnapshot
    public var isHidden: Bool { snapshot.hidden }

    /// Rebuilds a control.
    ///
    /// ```swift
    /// let control = ReplayControl(start.state!.controls[0])
    /// ```
    public init(_ snapshot: ControlSnapshot) {
        self.snapshot = snapshot
        noiseTagging = NoiseTagControlProperties(identifier: snapshot.identifier, customUtopiaObjectID: snapshot.objectID,
                                                 participatesInFlickering: snapshot.participates,
                                                 enabled: snapshot.enabled, playClickSoundOnPress: snapshot.clickSound)
    }
}
