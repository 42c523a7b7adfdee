/// Paints a trial's flickering controls, in order, when their state changes,
/// without touching any control's reference count.
///
/// A control is painted on the first flicker frame and then only on frames
/// where its colour changes (its code state goes from zero to non-zero or
/// back), so it keeps its colour in between (``NoiseTagControl/setFlickerColor(_:)``).
///
/// Calling a method on an `any NoiseTagControl` loaded from an array costs
/// a retain and a release (two atomic operations) per control and frame.
/// The painter keeps the controls alive in a strong array and calls each one
/// through an unretained reference: a plain ``NoiseTagButton`` (not a
/// subclass) by a direct store of its colour, any other control through a
/// setter specialised for its concrete type when the flicker starts.
///
/// ```swift
/// var painter = FlickerPainter(controls: trial.entries.map(\.control))
/// states.withUnsafeBufferPointer { painter.paint(states: $0, from: 0, on: palette.bitOn, off: palette.bitOff) }
/// ```
struct FlickerPainter {
    /// Calls `setFlickerColor` on an object known to be a `Control`.
    private protocol Setter {
        static func setFlickerColor(_ color: NoiseTagColor, on object: AnyObject)
    }

    private enum SetterFor<Control: NoiseTagControl>: Setter {
        static func setFlickerColor(_ color: NoiseTagColor, on object: AnyObject) {
            unsafeDowncast(object, to: Control.self).setFlickerColor(color)
        }
    }

    /// A control, unretained, with the setter for its dynamic type (nil for
    /// a plain ``NoiseTagButton``, whose colour is stored directly).
    private struct Slot {
        let object: Unmanaged<AnyObject>
        let setter: (any Setter.Type)?

        init<Control: NoiseTagControl>(_ control: Control) {
            object = .passUnretained(control)
            setter = ObjectIdentifier(type(of: control)) == ObjectIdentifier(NoiseTagButton.self)
                ? nil : SetterFor<Control>.self
        }
    }

    /// `shown` before a control's first paint (painted ones hold 0 or 1).
    private static let unpainted: UInt8 = 2

    /// Keeps every control alive while the painter exists.
    private let controls: [any NoiseTagControl]
    private let slots: [Slot]
    /// True when every control is a plain button: painting is then a loop of stores.
    private let onlyPlainButtons: Bool
    /// Per control, 1 when it shows the on colour, 0 for off, or
    /// `unpainted`; kept only when some control is not a plain button.
    private var shown: [UInt8]

    /// A painter for `controls`, in order; none is painted yet.
    init(controls: [any NoiseTagControl] = []) {
        self.controls = controls
        slots = controls.map { Slot($0) }
        onlyPlainButtons = slots.allSatisfy { $0.setter == nil }
        shown = Array(repeating: Self.unpainted, count: controls.count)
    }

    /// Gives control k the colour of `states[start + k]` (`on` for a non-zero
    /// state, else `off`) when that is not the colour it shows, for every k
    /// in order.
    ///
    /// Controls run their own code here; the caller must not hold an access
    /// to anything a control could reach (the controller moves the painter
    /// out of its state while painting).
    mutating func paint(states: UnsafeBufferPointer<UInt8>, from start: Int, on: NoiseTagColor, off: NoiseTagColor) {
        precondition(start >= 0 && start + slots.count <= states.count, "one state per control is needed")
        let states = UnsafeBufferPointer(rebasing: states[start...])
        withExtendedLifetime(controls) {
            slots.withUnsafeBufferPointer { slots in
                if onlyPlainButtons {
                    Self.paintButtons(slots, states, on, off)
                } else {
                    shown.withUnsafeMutableBufferPointer { Self.paintAny(slots, states, &$0, on, off) }
                }
            }
        }
    }

    /// The loop for plain buttons only: every button's colour is stored,
    /// changed or not (storing the colour a button has changes nothing
    /// anyone sees), without a branch on the code's random bits: a branch
    /// on them is mispredicted about half the time, which costs more than
    /// the store.
    private static func paintButtons(_ slots: UnsafeBufferPointer<Slot>, _ states: UnsafeBufferPointer<UInt8>,
                                     _ on: NoiseTagColor, _ off: NoiseTagColor) {
        // The two colours side by side; a state picks one by address, not by a branch.
        withUnsafeTemporaryAllocation(of: NoiseTagColor.self, capacity: 2) { colors in
            colors.initializeElement(at: 0, to: off)
            colors.initializeElement(at: 1, to: on)
            let base = UnsafeRawPointer(colors.baseAddress!)
            for k in 0..<slots.count {
                let offset = Int(truncatingIfNeeded: (UInt32(states[k]) &+ 0xFF) &>> 8) &* MemoryLayout<NoiseTagColor>.stride
                let color = base.load(fromByteOffset: offset, as: NoiseTagColor.self)
                Unmanaged<NoiseTagButton>.fromOpaque(slots[k].object.toOpaque())
                    ._withUnsafeGuaranteedRef { $0.storeFlickerColor(color) }
            }
        }
    }

    /// The loop for controls of any kind.
    private static func paintAny(_ slots: UnsafeBufferPointer<Slot>, _ states: UnsafeBufferPointer<UInt8>,
                                 _ shown: inout UnsafeMutableBufferPointer<UInt8>,
                                 _ on: NoiseTagColor, _ off: NoiseTagColor) {
        for k in 0..<slots.count {
            let bit: UInt8 = states[k] != 0 ? 1 : 0
            guard shown[k] != bit else { continue }
            shown[k] = bit
            let slot = slots[k], color = bit != 0 ? on : off
            // The object is alive (held by `controls`), so no retain is needed for the call.
            if let setter = slot.setter {
                slot.object._withUnsafeGuaranteedRef { setter.setFlickerColor(color, on: $0) }
            } else {
                Unmanaged<NoiseTagButton>.fromOpaque(slot.object.toOpaque())
                    ._withUnsafeGuaranteedRef { $0.storeFlickerColor(color) }
            }
        }
    }
}
