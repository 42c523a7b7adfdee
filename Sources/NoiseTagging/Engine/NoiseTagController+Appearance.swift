extension NoiseTagController {
    /// The current unit's default look (asks the delegate's `customBackgroundColorFor`).
    func defaultLook() -> DefaultLook {
        let background = units.last.flatMap { $0.delegate.customBackgroundColorFor(noiseTaggingView: $0.view) }
        return DefaultLook(settings: settings, viewBackground: background)
    }

    /// Shows feedback (or the cue) in `color` on `control`, or its default look
    /// for nil, with the control's ``NoiseTagControlProperties/defaultColor``
    /// brought up to date first.
    func showFeedback(_ color: NoiseTagColor?, on control: any NoiseTagControl, look: DefaultLook? = nil) {
        control.noiseTagging.defaultColor = (look ?? defaultLook()).color(for: control)
        control.setFeedbackColor(color)
    }

    /// Tells `control` that it starts (with its object ID) or stops
    /// flickering, with its default colour and render hints brought up to date first.
    func tellNoiseTagging(_ running: Bool, to control: any NoiseTagControl, objectID: Int?, look: DefaultLook) {
        let properties = control.noiseTagging
        properties.defaultColor = look.color(for: control)
        properties.renderHints = running
            ? NoiseTagRenderHints(objectID: objectID, showsObjectID: settings.boolFor(.showNoiseTagIDsOnControls),
                                  flickersOnlyBorder: settings.boolFor(.labeledButtonsOnlyPartlyFlicker) && control.isLabelled)
            : NoiseTagRenderHints()
        control.noiseTaggingDidChange(isRunning: running)
    }
}
