/// Paints a trial's flickering controls, in order, when their state changes.
///
/// A control is painted on the first flicker frame and then only on frames
/// where its colour changes (its code state goes from zero to non-zero or
/// back), so it keeps its colour in between (``NoiseTagControl/setFlickerColor(_:)``).
///
/// ```swift
/// var painter = FlickerPainter(controls: trial.entries.map(\.control))
/// painter.paint(states: states, from: 0, on: palette.bitOn, off: palette.bitOff)
/// ```
struct FlickerPainter {
    /// `shown` before a control's first paint (painted ones hold 0 or 1).
    private static let unpainted: UInt8 = 2

    private let controls: [any NoiseTagControl]
    /// Per control, 1 when it shows the on colour, 0 for off, or `unpainted`.
    private var shown: [UInt8]

    /// A painter for `controls`, in order; none is painted yet.
    init(controls: [any NoiseTagControl] = []) {
        self.controls = controls
        shown = Array(repeating: Self.unpainted, count: controls.count)
    }

    /// Gives control k the colour of `states[start + k]` (`on` for a non-zero
    /// state, else `off`) when that is not the colour it shows, for every k
    /// in order.
    ///
    /// Controls run their own code here; the caller must not hold an access
    /// to anything a control could reach (the controller moves the painter
    /// out of its state while painting).
    mutating func paint(states: [UInt8], from start: Int, on: NoiseTagColor, off: NoiseTagColor) {
        precondition(start >= 0 && start + controls.count <= states.count, "one state per control is needed")
        for k in controls.indices {
            let bit: UInt8 = states[start + k] != 0 ? 1 : 0
            guard shown[k] != bit else { continue }
            shown[k] = bit
            controls[k].setFlickerColor(bit != 0 ? on : off)
        }
    }
}
