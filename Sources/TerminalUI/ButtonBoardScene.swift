import NoiseTagging

/// The standard screen of brain buttons: the header on the first row, the
/// controller's buttons centred below it, the keys on the last row. Made
/// without buttons, it shows the buttons of the controller's current view,
/// so a push or pop of a unit changes what it draws. Space
/// turns trials on and off; a button's one-character label presses it by
/// touch; other keys go to ``onKey``.
///
/// ```swift
/// let scene = ButtonBoardScene(controller: controller, buttons: grid.buttons,
///                              footer: TerminalFooter(keys: [("space", "trials on/off"), ("q", "quit")]))
/// scene.leading = { (predictions.best, predictions.certainty) }
/// let code = runner.run(scene)
/// ```
public final class ButtonBoardScene: TerminalScene {
    /// The engine shown.
    public let controller: NoiseTagController
    /// The buttons and where they go: those given, or those of the
    /// controller's current view when the scene follows it.
    public var layout: ButtonLayout {
        guard followsCurrentView else { return shown }
        let buttons = (controller.currentView?.allControls ?? []).compactMap { $0 as? NoiseTagButton }
        if !buttons.elementsEqual(shown.buttons, by: ===) {
            shown = ButtonLayout(buttons: buttons)
        }
        return shown
    }
    private var shown: ButtonLayout
    private let followsCurrentView: Bool
    /// The keys line.
    public var footer: TerminalFooter
    /// The leading control and its certainty for the header, nil when unknown.
    public var leading: () -> (control: String, certainty: Double)? = { nil }
    /// Keys the scene does not use itself.
    public var onKey: (UInt8) -> Void = { _ in }
    /// Screen background.
    public static let background = TerminalTheme.background

    /// Creates the scene of `buttons`, whatever unit is current.
    public init(controller: NoiseTagController, buttons: [NoiseTagButton], footer: TerminalFooter) {
        self.controller = controller
        shown = ButtonLayout(buttons: buttons)
        followsCurrentView = false
        self.footer = footer
    }

    /// Creates the scene of the buttons of the controller's current view
    /// (its other controls are not drawn), looked up again at every frame.
    public init(controller: NoiseTagController, footer: TerminalFooter) {
        self.controller = controller
        shown = ButtonLayout(buttons: [])
        followsCurrentView = true
        self.footer = footer
    }

    /// The buttons plus a margin of one cell, a header and a footer row.
    public var minimumSize: TerminalSize {
        TerminalSize(columns: layout.contentSize.columns + 2, rows: layout.contentSize.rows + 4)
    }

    /// The area between header and footer where the buttons are centred.
    public func buttonRegion(in size: TerminalSize) -> CellRect {
        CellRect(row: 2, column: 0, width: size.columns, height: max(0, size.rows - 3))
    }

    /// Draws header, buttons (with the engine's render hints and the
    /// `clickFeedbackMode` setting's look of a press) and footer.
    public func draw(on screen: TerminalScreen, missedFrames: Int) {
        screen.clear(to: TerminalCell(character: " ", foreground: .white, background: Self.background))
        TerminalHeader(controller: controller, missedFrames: missedFrames, leading: leading()).draw(on: screen, row: 0)
        let settings = controller.settings
        layout.draw(on: screen, in: buttonRegion(in: screen.size), palette: StimulusPalette(settings: settings),
                    feedbackMode: ClickFeedbackMode(rawValue: settings.textFor(.clickFeedbackMode)))
        footer.draw(on: screen, row: screen.size.rows - 1)
    }

    /// Space toggles trials; a button's label key presses it by touch; others go to ``onKey``.
    public func handle(key: UInt8) {
        if key == UInt8(ascii: " ") {
            controller.trialsAreRunning.toggle()
            return
        }
        let text = String(decoding: [key], as: UTF8.self)
        if let button = layout.buttons.first(where: { $0.label == text }) {
            controller.touchPress(button)
            return
        }
        onKey(key)
    }
}
