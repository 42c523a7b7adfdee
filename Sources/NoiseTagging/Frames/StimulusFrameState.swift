import UtopiaProtocol

/// Per-trial buffers for building each flicker frame without allocating or
/// touching the trial's entries: the object IDs, the controls and every
/// object's code are laid out once when the flicker starts; each frame then
/// copies one row of states in place and paints the controls from it.
struct StimulusFrameState {
    var trial = 0
    /// The frame loop's index of the flicker's first frame (nil before it).
    var firstIndex: Int?
    /// The latest frame index rendered.
    var lastIndex = Int.min
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

    /// Enters frame `index` of the frame loop and loads its states: the
    /// flicker's first frame shows code position 0, and each later frame the
    /// position `(index - first) / framesPerBit`, so a skipped frame skips its
    /// bit. False, changing nothing, when that frame or a later one was
    /// already rendered.
    mutating func enter(frame index: Int) -> Bool {
        guard index > lastIndex else { return false }
        lastIndex = index
        let first = firstIndex ?? index
        firstIndex = first
        loadStates(bit: (index - first) / framesPerBit)
        return true
    }

    /// Copies every object's state for code position `bit` into `states`, in place.
    mutating func loadStates(bit: Int) {
        let objects = states.count
        let row = (bit % codeLength) * objects
        states.replaceSubrange(0..<objects, with: codes[row ..< row + objects])
    }
}
