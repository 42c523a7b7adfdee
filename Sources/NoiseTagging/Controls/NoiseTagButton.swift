/// A ready-made control for programs without a UI toolkit (terminal demo,
/// headless runs, tests): it remembers the colours the engine gives it, for
/// a renderer to draw: ``flickerColor`` while flickering, ``feedbackColor``
/// during feedback, else `noiseTagging.defaultColor`; `noiseTagging.renderHints`
/// say whether to show its object ID and to flicker only its border.
///
/// ```swift
/// let button = NoiseTagButton(identifier: "A", label: "A",
///                             frame: NoiseTagRect(x: 0, y: 0, width: 8, height: 3))
/// view.add(button)
/// ```
open class NoiseTagButton: NoiseTagControl {
    /// The button's noise-tagging properties.
    public let noiseTagging: NoiseTagControlProperties
    /// The text shown on the button.
    public var label: String
    /// Where the button sits, for touch hit tests and drawing.
    public var frame: NoiseTagRect
    /// Hides the button.
    public var isHidden: Bool = false
    /// The button's own background colour for its default look, nil for the
    /// delegate's or the `defaultColorButtonEnabled` setting's.
    public var customBackgroundColor: NoiseTagColor?
    /// True when ``label`` is not empty.
    public var isLabelled: Bool { !label.isEmpty }
    /// The flicker colour of the latest frame, nil when not flickering.
    ///
    /// Written on the engine thread every flicker frame; not checked for
    /// exclusive access at run time (the check costs more than the write).
    @exclusivity(unchecked)
    public private(set) var flickerColor: NoiseTagColor?
    /// The press-feedback colour, nil for the default look.
    public private(set) var feedbackColor: NoiseTagColor?
    /// Whether noise tagging is running on this button.
    public private(set) var isNoiseTagging = false

    /// Creates a button.
    ///
    /// ```swift
    /// let ok = NoiseTagButton(identifier: "ok")
    /// ```
    public init(identifier: String? = nil, label: String? = nil,
                frame: NoiseTagRect = NoiseTagRect(x: 0, y: 0, width: 0, height: 0),
                customUtopiaObjectID: Int? = nil) {
        noiseTagging = NoiseTagControlProperties(identifier: identifier,
                                                 customUtopiaObjectID: customUtopiaObjectID)
        self.label = label ?? identifier ?? ""
        self.frame = frame
    }

    /// Remembers the flicker colour.
    open func setFlickerColor(_ color: NoiseTagColor) { storeFlickerColor(color) }

    /// What ``setFlickerColor(_:)`` does when not overridden; the engine
    /// calls it directly on plain buttons (see `FlickerPainter`).
    @inline(__always)
    final func storeFlickerColor(_ color: NoiseTagColor) { flickerColor = color }

    /// Remembers the feedback colour.
    open func setFeedbackColor(_ color: NoiseTagColor?) { feedbackColor = color }

    /// Clears the flicker colour when noise tagging stops.
    open func noiseTaggingDidChange(isRunning: Bool) {
        isNoiseTagging = isRunning
        if !isRunning { flickerColor = nil }
    }

    /// Hit test against ``frame``.
    open func hitTest(_ point: NoiseTagPoint) -> Bool { frame.contains(point) }
}
