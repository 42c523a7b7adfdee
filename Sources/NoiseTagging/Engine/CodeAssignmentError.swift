/// Why the flickering controls could not get object IDs (or codes).
/// Reported on the event stream; no trial starts until the unit is fixed.
public enum CodeAssignmentError: Error, Equatable, CustomStringConvertible {
    /// Two controls ask for the same `customUtopiaObjectID`.
    case duplicateObjectID(Int, controls: [String])
    /// A `customUtopiaObjectID` outside 1…255 (0 is reserved for the cued target).
    case objectIDOutOfRange(Int, control: String)
    /// More flickering controls than free object IDs (255 at most).
    case tooManyControls(count: Int, limit: Int)
    /// More flickering controls than codes in the codebook.
    case notEnoughCodes(controls: Int, codes: Int)

    /// The reason, naming the controls and numbers involved.
    public var description: String {
        switch self {
        case .duplicateObjectID(let id, let controls):
            return "object ID \(id) is used by more than one control: \(controls.joined(separator: ", "))"
        case .objectIDOutOfRange(let id, let control):
            return "control '\(control)' asks for object ID \(id); IDs must be 1...255 (0 is the cued target's)"
        case .tooManyControls(let count, let limit):
            return "\(count) flickering controls, but only \(limit) object IDs are free"
        case .notEnoughCodes(let controls, let codes):
            return "\(controls) flickering controls, but the codebook has only \(codes) codes"
        }
    }
}
