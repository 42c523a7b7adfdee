/// A call the controller refused, with the reason. Each one is also reported
/// on the event stream as ``NoiseTagEvent/Kind/refused(call:reason:)``.
public enum NoiseTagError: Error, Equatable, CustomStringConvertible {
    /// `addAction` called outside an update.
    case actionOutsideUpdate(control: String)
    /// `addAction` with a timing outside 0…1.
    case actionTimingOutOfRange(control: String, timing: Double)
    /// `update(view:…)` with a view that is not the current unit's.
    case updateWithViewNotCurrent
    /// `pop()` on an empty stack.
    case popOnEmptyStack
    /// `updateControls` with no unit pushed.
    case updateWithoutUnit
    /// `unblockTrials()` with no untimed block of the client's in place.
    case unblockWithoutBlock
    /// A timed block with a negative or non-finite duration.
    case invalidBlockDuration(Double)
    /// A touch press that could not be taken.
    case touchNotTaken(control: String, reason: String)
    /// A mode change the engine could not make.
    case modeChangeRefused(reason: String)
    /// `tick()` called from app code that runs inside a tick (an observer, a control, a delegate).
    case tickInsideTick
    /// `push`, `pop`, `update` or `updateControls` called from inside an
    /// update (`startNoiseTagControlOn` or an `updateCode`), which would
    /// start the update again, without end; `call` names it.
    case stackChangeInsideUpdate(call: String)
    /// Replay could not put the engine into a logged trial's starting state.
    case cannotRestore(String)

    /// The name of the refused call.
    public var call: String {
        switch self {
        case .actionOutsideUpdate, .actionTimingOutOfRange: return "addAction(timing:closure:)"
        case .updateWithViewNotCurrent: return "update(view:forNoiseTaggingWithDelegate:)"
        case .popOnEmptyStack: return "pop()"
        case .updateWithoutUnit: return "updateControls(updateCode:)"
        case .unblockWithoutBlock: return "unblockTrials()"
        case .invalidBlockDuration: return "blockTrials(forDuration:)"
        case .touchNotTaken: return "touchPress(_:)"
        case .modeChangeRefused: return "set(mode:waitTillDecoderConfirms:withExplanation:)"
        case .tickInsideTick: return "tick(frame:)"
        case .stackChangeInsideUpdate(let call): return call
        case .cannotRestore: return "restore(_:)"
        }
    }

    /// Why the call was refused, in a sentence.
    public var description: String {
        switch self {
        case .actionOutsideUpdate(let control):
            return "action for '\(control)' refused: actions may only be assigned during an update (in startNoiseTagControlOn or updateControls)"
        case .actionTimingOutOfRange(let control, let timing):
            return "action for '\(control)' refused: timing \(timing) is outside 0...1"
        case .updateWithViewNotCurrent:
            return "update ignored: the view is not the current unit's view"
        case .popOnEmptyStack:
            return "pop ignored: the unit stack is empty"
        case .updateWithoutUnit:
            return "updateControls ignored: no unit has been pushed"
        case .unblockWithoutBlock:
            return "unblock ignored: trials are not blocked by the client until unblocked (timed blocks end by themselves)"
        case .invalidBlockDuration(let duration):
            return "block refused: duration \(duration) s is not a finite number >= 0"
        case .touchNotTaken(let control, let reason):
            return "touch on '\(control)' not taken: \(reason)"
        case .modeChangeRefused(let reason):
            return "mode change refused: \(reason)"
        case .tickInsideTick:
            return "tick refused: called from inside a tick (an observer, control or delegate); the frame loop ticks, once per frame"
        case .stackChangeInsideUpdate(let call):
            return "\(call) refused: called from inside an update (startNoiseTagControlOn or an updateCode), where it would start the update again without end; assign actions there, and change the stack from an action or through inbox.post"
        case .cannotRestore(let reason):
            return "cannot restore the trial's starting state: \(reason)"
        }
    }
}
