/// A brain-pressable button, independent of any UI toolkit.
///
/// Adopt it in your own button type; every requirement but ``noiseTagging``
/// has a default. The engine calls these methods on the engine thread.
///
/// ```swift
/// final class MyButton: NoiseTagControl {
///     let noiseTagging = NoiseTagControlProperties(identifier: "ok")
///     func setFlickerColor(_ color: NoiseTagColor) { /* paint */ }
/// }
/// ```
public protocol NoiseTagControl: AnyObject {
    /// The control's noise-tagging properties: identifier, object ID, flags, actions.
    var noiseTagging: NoiseTagControlProperties { get }

    /// True when the control itself is hidden. Default: false.
    var isHidden: Bool { get }

    /// True when the control or any container above it is hidden.
    /// Default: ``isHidden`` or the container chain's hidden flags.
    var isHiddenOrInHiddenContainer: Bool { get }

    /// Paint the control in its flicker colour. During a flicker the engine
    /// calls it on the first frame and then whenever the colour changes; the
    /// control keeps showing the colour until the next call. Default: nothing.
    func setFlickerColor(_ color: NoiseTagColor)

    /// Show press feedback in `color`, or go back to the default look for `nil`. Default: nothing.
    func setFeedbackColor(_ color: NoiseTagColor?)

    /// Update the appearance when noise tagging starts (`true`) or stops (`false`). Default: nothing.
    func noiseTaggingDidChange(isRunning: Bool)

    /// Touch hit test in screen coordinates. Default: false (not touchable).
    func hitTest(_ point: NoiseTagPoint) -> Bool
}

extension NoiseTagControl {
    /// Default: not hidden.
    public var isHidden: Bool { false }

    /// Default: hidden when the control or one of its containers is hidden.
    public var isHiddenOrInHiddenContainer: Bool {
        isHidden || (noiseTagging.container?.isHiddenOrInHiddenContainer ?? false)
    }

    /// Default: nothing.
    public func setFlickerColor(_ color: NoiseTagColor) {}

    /// Default: nothing.
    public func setFeedbackColor(_ color: NoiseTagColor?) {}

    /// Default: nothing.
    public func noiseTaggingDidChange(isRunning: Bool) {}

    /// Default: false.
    public func hitTest(_ point: NoiseTagPoint) -> Bool { false }

    /// The control's identifier, or a description of its object when it has none.
    ///
    /// ```swift
    /// let name = button.noiseTagName
    /// ```
    public var noiseTagName: String {
        noiseTagging.identifier ?? "\(type(of: self))@\(ObjectIdentifier(self).hashValue)"
    }
}
