/// Paints one frame's flicker colours on a trial's controls, in order,
/// without touching any control's reference count.
///
/// Calling a method on an `any NoiseTagControl` loaded from an array costs
/// a retain and a release (two atomic operations) per control and frame,
/// about two thirds of the per-control cost of a frame. The painter keeps
/// the controls alive in a strong array and calls each one through an
/// unretained reference paired with a setter specialised for its concrete
/// type when the flicker starts, so a frame does no reference counting.
///
/// ```swift
/// let painter = FlickerPainter(controls: trial.entries.map(\.control))
/// states.withUnsafeBufferPointer { painter.paint(states: $0, from: 0, palette: palette) }
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

    /// A control, unretained, with the setter for its dynamic type.
    private struct Slot {
        let object: Unmanaged<AnyObject>
        let setter: any Setter.Type

        init<Control: NoiseTagControl>(_ control: Control) {
            object = .passUnretained(control)
            setter = SetterFor<Control>.self
        }
    }

    /// Keeps every control alive while the painter exists.
    private let controls: [any NoiseTagControl]
    private let slots: [Slot]

    /// A painter for `controls`, in order.
    init(controls: [any NoiseTagControl] = []) {
        self.controls = controls
        slots = controls.map { Slot($0) }
    }

    /// The number of controls painted.
    var count: Int { slots.count }

    /// Gives control k the colour of `states[start + k]`, for every k in order.
    func paint(states: UnsafeBufferPointer<UInt8>, from start: Int, palette: StimulusPalette) {
        precondition(start >= 0 && start + slots.count <= states.count, "one state per control is needed")
        withExtendedLifetime(controls) {
            slots.withUnsafeBufferPointer { slots in
                for k in 0..<slots.count {
                    let slot = slots[k]
                    let color = palette.color(forState: states[start &+ k])
                    // The object is alive (held by `controls`), so no retain is needed for the call.
                    slot.object._withUnsafeGuaranteedRef { slot.setter.setFlickerColor(color, on: $0) }
                }
            }
        }
    }
}
