import UtopiaProtocol

/// Why a session protocol cannot be run: one line naming the file, the
/// step (number and kind) and the field, and the reason.
public struct SessionProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file (or "protocol" for one given as data).
    public let source: String
    /// The step's 1-based number, nil for the protocol's own fields.
    public let step: Int?
    /// The step's kind when known.
    public let kind: String?
    /// The field, nil when the problem is the whole step or file.
    public let field: String?
    /// What is wrong.
    public let reason: String

    /// The one line shown to the researcher (control characters in a quoted
    /// field or value escaped).
    public var description: String {
        var text = source + ": "
        if let step { text += "step \(step)" + (kind.map { " (\($0))" } ?? "") + ": " }
        if let field { text += "field \"\(field)\": " }
        return (text + reason).escapingControlCharacters
    }
}
