/// Paints a trial's flickering controls, in order, when their state changes.
///
/// A control is painted on the first flicker frame and then only on frames
/// where its colour changes (its code state goes from zero to non-zero or
/// back), so it keeps its colour in between (``NoiseTagControl/setFlickerColor(_:)``).
/// Plain ``NoiseTagButton``s (not subclasses) are not called at all: they
/// read their colour from the trial's shared ``FlickerFrame``, which the
/// painter hands each frame's states.
struct FlickerPainter {
    /// `shown` before a control's first paint (painted ones hold 0 or 1).
    private static let unpainted: UInt8 = 2

    /// The frame the plain buttons read their colour from.
    private let frame: FlickerFrame
    /// The controls painted by calls, with their position among all controls.
    private let called: [(control: any NoiseTagControl, slot: Int)]
    /// Per called control, 1 when it shows the on colour, 0 for off, or `unpainted`.
    private var shown: [UInt8]

    /// A painter for `controls`, in order, whose states start at `offset` in
    /// each frame's states; none is painted yet. Plain buttons are attached
    /// to the shared frame here.
    init(controls: [any NoiseTagControl] = [], offset: Int = 0, on: NoiseTagColor = .white, off: NoiseTagColor = .black) {
        frame = FlickerFrame(offset: offset, on: on, off: off)
        var called: [(control: any NoiseTagControl, slot: Int)] = []
        for (slot, control) in controls.enumerated() {
            if type(of: control) == NoiseTagButton.self, let button = control as? NoiseTagButton {
                button.show(frame, slot: slot)
            } else {
                called.append((control, slot))
            }
        }
        self.called = called
        shown = Array(repeating: Self.unpainted, count: called.count)
    }

    /// Hands the plain buttons `states`, then gives every other control k
    /// the colour of `states[offset + k]` (`on` for a non-zero state, else
    /// `off`) when that is not the colour it shows, in order.
    ///
    /// Controls run their own code here; the caller must not hold an access
    /// to anything a control could reach (the controller moves the painter
    /// out of its state while painting).
    mutating func paint(states: [UInt8]) {
        let offset = frame.offset
        precondition(offset >= 0 && offset + (called.last?.slot ?? -1) < states.count, "one state per control is needed")
        frame.states = states
        for k in called.indices {
            let bit: UInt8 = states[offset + called[k].slot] != 0 ? 1 : 0
            guard shown[k] != bit else { continue }
            shown[k] = bit
            called[k].control.setFlickerColor(bit != 0 ? frame.on : frame.off)
        }
    }
}
