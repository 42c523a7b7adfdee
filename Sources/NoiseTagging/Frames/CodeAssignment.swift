/// Gives each flickering control an object ID and a code.
///
/// Object IDs: a control's `customUtopiaObjectID`, or else the next free ID
/// in 1…255, in control order (0 is reserved for the cued target in
/// training). Codes: the k-th flickering control gets code k of the
/// codebook, or code `count − 1 − k` with `assignNoiseTagsInReversedOrder`.
public enum CodeAssignment {
    /// The object IDs a control may have.
    public static let validIDs = 1...255
    /// The object IDs a decoder's prediction can name (PREDICTEDTARGETPROB's
    /// `Yest` is a signed byte): a control above them flickers, and a touch
    /// presses it, but the brain cannot.
    public static let predictableIDs = 1...127

    /// One control's object ID and code index.
    public struct Slot: Equatable, Sendable {
        public let objectID: Int
        public let codeIndex: Int
    }

    /// Assigns IDs and codes, in control order. Throws for a custom ID
    /// outside 1…255, a duplicate ID, more controls than free IDs, or more
    /// controls than codes.
    public static func assign(_ controls: [any NoiseTagControl], codeCount: Int,
                              reversed: Bool) throws(CodeAssignmentError) -> [Slot] {
        var taken: [Int: String] = [:]
        for control in controls {
            guard let id = control.noiseTagging.customUtopiaObjectID else { continue }
            guard validIDs.contains(id) else { throw .objectIDOutOfRange(id, control: control.noiseTagName) }
            if let other = taken[id] { throw .duplicateObjectID(id, controls: [other, control.noiseTagName]) }
            taken[id] = control.noiseTagName
        }
        let wanting = controls.count - taken.count
        guard wanting <= validIDs.count - taken.count else {
            throw .tooManyControls(count: controls.count, limit: validIDs.count)
        }
        guard controls.count <= codeCount else { throw .notEnoughCodes(controls: controls.count, codes: codeCount) }
        var next = validIDs.lowerBound
        return controls.enumerated().map { k, control in
            let code = reversed ? codeCount - 1 - k : k
            if let id = control.noiseTagging.customUtopiaObjectID { return Slot(objectID: id, codeIndex: code) }
            while taken[next] != nil { next += 1 }
            taken[next] = control.noiseTagName
            return Slot(objectID: next, codeIndex: code)
        }
    }
}
