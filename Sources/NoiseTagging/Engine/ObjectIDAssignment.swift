/// Gives each flickering control a Utopia object ID: its
/// `customUtopiaObjectID`, or else the next free ID in 1…255, in control order.
enum ObjectIDAssignment {
    static let validIDs = 1...255

    static func assign(_ controls: [any NoiseTagControl]) throws(CodeAssignmentError) -> [Int] {
        var taken: [Int: String] = [:]
        for control in controls {
            guard let id = control.noiseTagging.customUtopiaObjectID else { continue }
            guard validIDs.contains(id) else {
                throw .objectIDOutOfRange(id, control: control.noiseTagName)
            }
            if let other = taken[id] {
                throw .duplicateObjectID(id, controls: [other, control.noiseTagName])
            }
            taken[id] = control.noiseTagName
        }
        let free = validIDs.count - taken.count
        let wanting = controls.filter { $0.noiseTagging.customUtopiaObjectID == nil }.count
        guard wanting <= free else { throw .tooManyControls(count: controls.count, limit: validIDs.count) }
        var next = validIDs.lowerBound
        return controls.map { control in
            if let id = control.noiseTagging.customUtopiaObjectID { return id }
            while taken[next] != nil { next += 1 }
            taken[next] = control.noiseTagName
            return next
        }
    }
}
