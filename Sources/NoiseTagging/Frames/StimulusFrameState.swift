import UtopiaProtocol

/// Per-trial buffers for building each flicker frame without allocating or
/// touching the trial's entries: the object IDs, the controls and every
/// object's code are laid out once when the flicker starts; each frame then
/// copies one column of states in place and paints the controls from it.
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
    /// Paints the flickering controls, in entry order: control k's state is `states[offset + k]`.
    var painter = FlickerPainter()
    /// Each object's code in `objIDs` order, one after the other, `codeLength`
    /// states each; the states a frame shows are column `bit % codeLength`.
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
    /// are) and sizes `states` to match.
    mutating func load(codes objectCodes: [[UInt8]]) {
        let length = objectCodes.first?.count ?? 0
        precondition(length > 0 && objectCodes.allSatisfy { $0.count == length },
                     "a trial's codes come from one codebook: non-empty and of one length")
        codes.removeAll(keepingCapacity: true)
        codes.reserveCapacity(objectCodes.count * length)
        for code in objectCodes { codes.append(contentsOf: code) }
        codeLength = length
        states = Array(repeating: 0, count: objectCodes.count)
    }

    /// The index of the frame due at `deadline`: periods since the flicker's
    /// first frame, rounded; nil when that frame, or a later one, was
    /// already rendered.
    func frameIndex(dueAt deadline: Double) -> Int? {
        let index = Int(((deadline - firstDeadline) / period).rounded())
        return index > lastIndex ? index : nil
    }

    /// Marks frame `index` rendered and loads its states.
    mutating func enter(frame index: Int) {
        lastIndex = index
        loadStates(bit: index / framesPerBit)
    }

    /// Copies every object's state for code position `bit` into `states`, in place.
    mutating func loadStates(bit: Int) {
        let column = bit % codeLength
        let stride = codeLength
        codes.withUnsafeBufferPointer { codes in
            states.withUnsafeMutableBufferPointer { states in
                for object in 0..<states.count { states[object] = codes[object &* stride &+ column] }
            }
        }
    }
}
