/// The colours of the controls' default look (not flickering, no feedback)
/// in the current unit, worked out from the settings and the current
/// delegate: a control's own ``NoiseTagControl/customBackgroundColor``, else
/// the delegate's `customBackgroundColorFor(noiseTaggingView:)`, else
/// `defaultColorButtonEnabled`; a disabled control shows
/// `defaultColorButtonDisabled`.
struct DefaultLook {
    let enabled: NoiseTagColor
    let disabled: NoiseTagColor
    /// The delegate's background colour for the current unit's view, if any.
    let viewBackground: NoiseTagColor?

    init(settings: NoiseTagSettings, viewBackground: NoiseTagColor?) {
        enabled = settings.colorFor(.defaultColorButtonEnabled)
        disabled = settings.colorFor(.defaultColorButtonDisabled)
        self.viewBackground = viewBackground
    }

    /// The default colour of `control` now.
    func color(for control: any NoiseTagControl) -> NoiseTagColor {
        guard control.noiseTagging.enabled else { return disabled }
        return control.customBackgroundColor ?? viewBackground ?? enabled
    }
}
