/// The states of the flicker frame on screen, shared by the engine with the
/// plain ``NoiseTagButton``s of a trial: the engine hands it each frame's
/// states once, and each button reads its own colour from it when asked,
/// instead of being told its colour one call per button and frame.
///
/// ```swift
/// let frame = FlickerFrame(offset: 0, on: palette.bitOn, off: palette.bitOff)
/// button.show(frame, slot: 3)
/// frame.states = states            // every attached button now shows its state
/// ```
final class FlickerFrame {
    /// The frame's states, as sent in its STIMULUSEVENT; empty before the first frame.
    var states: [UInt8] = []
    /// Index in ``states`` of slot 0 (1 when object ID 0 carries the training target).
    let offset: Int
    let on: NoiseTagColor
    let off: NoiseTagColor

    init(offset: Int, on: NoiseTagColor, off: NoiseTagColor) {
        self.offset = offset
        self.on = on
        self.off = off
    }

    /// The colour of `slot`: `on` for a non-zero state, else `off`; nil before the first frame.
    func color(at slot: Int) -> NoiseTagColor? {
        let index = offset + slot
        guard index < states.count else { return nil }
        return states[index] != 0 ? on : off
    }
}
