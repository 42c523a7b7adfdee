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
    /// During a flicker a plain button (not a subclass) reads it from the
    /// frame the engine shares with the trial's buttons, so the engine
    /// does not call each button every frame; a subclass gets
    /// ``setFlickerColor(_:)`` calls as any control does.
    public var flickerColor: NoiseTagColor? {
        if let sharedFrame { return sharedFrame.color(at: slot) }
        return storedFlickerColor
    }
    private var storedFlickerColor: NoiseTagColor?
    /// The shared frame this button shows, and its place in it.
    private var sharedFrame: FlickerFrame?
    private var slot = 0
    /// The press-feedback colour, nil for the default look.
    public private(set) var feedbackColor: NoiseTagColor?
    /// Whether noise tagging is running on this button.
    public private(set) var isNoiseTagging = false

    /// Creates a button.
    public init(identifier: String? = nil, label: String? = nil,
                frame: NoiseTagRect = NoiseTagRect(x: 0, y: 0, width: 0, height: 0),
                customUtopiaObjectID: Int? = nil) {
        noiseTagging = NoiseTagControlProperties(identifier: identifier,
                                                 customUtopiaObjectID: customUtopiaObjectID)
        self.label = label ?? identifier ?? ""
        self.frame = frame
    }

    /// Remembers the flicker colour.
    open func setFlickerColor(_ color: NoiseTagColor) {
        sharedFrame = nil
        storedFlickerColor = color
    }

    /// Shows the state of `slot` of the shared `frame` from now on (until a
    /// colour is set or noise tagging stops).
    final func show(_ frame: FlickerFrame, slot: Int) {
        sharedFrame = frame
        self.slot = slot
    }

    /// Remembers the feedback colour.
    open func setFeedbackColor(_ color: NoiseTagColor?) { feedbackColor = color }

    /// Clears the flicker colour when noise tagging stops.
    open func noiseTaggingDidChange(isRunning: Bool) {
        isNoiseTagging = isRunning
        if !isRunning {
            sharedFrame = nil
            storedFlickerColor = nil
        }
    }

    /// Hit test against ``frame``.
    open func hitTest(_ point: NoiseTagPoint) -> Bool { frame.contains(point) }
}
