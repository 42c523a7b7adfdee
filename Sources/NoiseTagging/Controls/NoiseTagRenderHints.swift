/// What a renderer should draw on a control besides its colours, set by the
/// engine on ``NoiseTagControlProperties/renderHints`` when the control
/// starts flickering and cleared when it stops.
///
/// - ``objectID``: the Utopia object ID the control flickers under in the
///   current trial (nil while it does not flicker);
/// - ``showsObjectID``: `showNoiseTagIDsOnControls` is on: draw the ID on the control;
/// - ``flickersOnlyBorder``: `labeledButtonsOnlyPartlyFlicker` is on and the
///   control has a label (``NoiseTagControl/isLabelled``): paint the flicker
///   colour on the border only, so the label stays readable.
///
/// The engine sets the hints just before it calls
/// ``NoiseTagControl/noiseTaggingDidChange(isRunning:)``, so a control reads
/// them there; a plain ``NoiseTagButton`` keeps them for whoever draws it.
///
/// ```swift
/// func draw(_ button: NoiseTagButton) {
///     let hints = button.noiseTagging.renderHints
///     let color = button.flickerColor ?? button.noiseTagging.defaultColor
///     if hints.flickersOnlyBorder { drawBorder(color); drawLabel(button.label) } else { fill(color) }
///     if hints.showsObjectID, let id = hints.objectID { drawCorner("\(id)") }
/// }
/// ```
public struct NoiseTagRenderHints: Equatable, Sendable {
    /// The Utopia object ID the control flickers under; nil when not flickering.
    public var objectID: Int?
    /// True when the renderer should show ``objectID`` on the control.
    public var showsObjectID: Bool
    /// True when the renderer should flicker only the control's border.
    public var flickersOnlyBorder: Bool

    /// Creates hints; the default is a control that does not flicker.
    public init(objectID: Int? = nil, showsObjectID: Bool = false, flickersOnlyBorder: Bool = false) {
        self.objectID = objectID
        self.showsObjectID = showsObjectID
        self.flickersOnlyBorder = flickersOnlyBorder
    }
}
