/// A brain-pressable button, independent of any UI toolkit.
///
/// Adopt it in your own button type; every requirement but ``noiseTagging``
/// has a default. The engine calls these methods on the engine thread.
/// A control that implements only ``setFlickerColor(_:)`` gets the guide's
/// whole look through it: bit colours while flickering, the cue and press
/// feedback colours, and its default look
/// (``NoiseTagControlProperties/defaultColor``) otherwise.
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

    /// Show press feedback (or the training cue) in `color`, or go back to
    /// the default look for `nil`. Default: forwards to ``setFlickerColor(_:)``,
    /// with ``NoiseTagControlProperties/defaultColor`` for `nil`, so a control
    /// that paints only flicker colours shows feedback too.
    func setFeedbackColor(_ color: NoiseTagColor?)

    /// Update the appearance when noise tagging starts (`true`) or stops
    /// (`false`). Default: paints ``NoiseTagControlProperties/defaultColor``
    /// with ``setFlickerColor(_:)``, so no bit colour stays once flickering stops.
    func noiseTaggingDidChange(isRunning: Bool)

    /// The control's own background colour for its default look, instead of
    /// `defaultColorButtonEnabled` (the guide's `customBackgroundColorFor`,
    /// per control). Default: nil (the delegate's
    /// `customBackgroundColorFor(noiseTaggingView:)`, else the setting).
    var customBackgroundColor: NoiseTagColor? { get }

    /// True when the control shows a label: with `labeledButtonsOnlyPartlyFlicker`
    /// its ``NoiseTagControlProperties/renderHints`` ask for a border-only flicker.
    /// Default: false.
    var isLabelled: Bool { get }

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

    /// Default: the feedback colour, or the default look for nil, through ``setFlickerColor(_:)``.
    public func setFeedbackColor(_ color: NoiseTagColor?) { setFlickerColor(color ?? noiseTagging.defaultColor) }

    /// Default: the default look (``NoiseTagControlProperties/defaultColor``) through ``setFlickerColor(_:)``.
    public func noiseTaggingDidChange(isRunning: Bool) { setFlickerColor(noiseTagging.defaultColor) }

    /// Default: nil.
    public var customBackgroundColor: NoiseTagColor? { nil }

    /// Default: false.
    public var isLabelled: Bool { false }

    /// Default: false.
    public func hitTest(_ point: NoiseTagPoint) -> Bool { false }

    /// The control's identifier, or a description of its object when it has none.
    public var noiseTagName: String {
        noiseTagging.identifier ?? "\(type(of: self))@\(ObjectIdentifier(self).hashValue)"
    }
}
