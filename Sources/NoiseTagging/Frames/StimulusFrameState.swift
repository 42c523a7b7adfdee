import UtopiaProtocol

/// Per-trial buffers for building each flicker frame without allocating:
/// the object IDs are fixed for the trial, the states are rewritten in place.
struct StimulusFrameState {
    var trial = 0
    var firstDeadline = 0.0
    var lastIndex = -1
    var objIDs: [UInt8] = []
    var states: [UInt8] = []
    /// Index of the first control's state in `states` (1 when ID 0 carries the target).
    var offset = 0
    var palette: StimulusPalette
    var framesPerBit = 1
    var hideNonTargets = false
    /// Flicker frames rendered since the controller was made.
    var framesRendered = 0
}
