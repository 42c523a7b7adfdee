import UtopiaProtocol

/// Per-trial buffers for building each flicker frame without allocating or
/// touching the trial's entries: the object IDs, the controls and every
/// object's code are laid out once when the flicker starts; each frame then
/// copies one row of states in place and paints the controls from it.
struct StimulusFrameState {
    var trial = 0
    var firstDeadline = 0.0
    var lastIndex = -1
    /// Seconds per frame, 1 / `preferredNFramesPerSecond`; a settings
    /// observer keeps it current (see `observingPeriod`).
    var period = 1.0 / 60
    /// True once the controller observes `preferredNFramesPerSecond` for ``period``.
    var observingPeriod = false
    var objIDs: [UInt8] = []
    var states: [UInt8] = []
    /// Paints the flickering controls, in entry order: control k's state is
    /// `states[offset + k]`. Nil before the first flicker, and while painting
    /// (the controller takes it out so that no control can reach it).
    var painter: FlickerPainter?
    /// Every object's code, bit-major: the states of code position `bit`
    /// for all objects (in `objIDs` order) are `codes[bit * objectCount ..<
    /// (bit + 1) * objectCount]`, so a frame's states are one contiguous copy.
    /// Controls hidden by `hideNonTargetControls` have all-zero codes.
    var codes: [UInt8] = []
    var codeLength = 1
    /// Index of the first control's state in `states` (1 when ID 0 carries the target).
    var offset = 0
    var palette: StimulusPalette
    var framesPerBit = 1
    /// Flicker frames rendered since the controller was made.
    var framesRendered = 0

    /// Lays out `codes` (one per object, all of one length, as a codebook's
    /// are) bit-major and sizes `states` to match.
    mutating func load(codes objectCodes: [[UInt8]]) {
        let length = objectCodes.first?.count ?? 0
        precondition(length > 0 && objectCodes.allSatisfy { $0.count == length },
                     "a trial's codes come from one codebook: non-empty and of one length")
        let objects = objectCodes.count
        var transposed = [UInt8](repeating: 0, count: objects * length)
        for (object, code) in objectCodes.enumerated() {
            for bit in 0..<length { transposed[bit * objects + object] = code[bit] }
        }
        codes = transposed
        codeLength = length
        states = Array(repeating: 0, count: objects)
    }

    /// Enters the frame due at `deadline` (periods since the flicker's first
    /// frame, rounded) and loads its states; false, changing nothing, when
    /// that frame or a later one was already rendered (or the deadline is
    /// before the first frame's).
    mutating func enter(frameDueAt deadline: Double) -> Bool {
        let periods = (deadline - firstDeadline) / period
        // Round half up by truncation (cheaper than `rounded()`, a libm call);
        // only valid from -0.5 on, and nothing before frame 0 is rendered.
        guard periods >= -0.5 else { return false }
        let index = Int(periods + 0.5)
        guard index > lastIndex else { return false }
        lastIndex = index
        loadStates(bit: index / framesPerBit)
        return true
    }

    /// Copies every object's state for code position `bit` into `states`, in place.
    mutating func loadStates(bit: Int) {
        let objects = states.count
        let row = (bit % codeLength) * objects
        states.replaceSubrange(0..<objects, with: codes[row ..< row + objects])
    }
}
