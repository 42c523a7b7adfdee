/// The one-line message under the developer panel's list: what the last
/// edit did, or why it did nothing.
///
/// ```swift
/// if let message = panel.message, message.kind == .refused {
///     log.warning("\(message.text)")   // "certaintyRequiredForPress: 7.0 is outside 0.0...1.0; still 0.9"
/// }
/// ```
public struct DeveloperPanelMessage: Equatable, Sendable {
    /// What the message reports; it sets the colour.
    public enum Kind: Equatable, Sendable {
        /// A value was applied (green).
        case applied
        /// Input was refused and the value left as it was (red).
        case refused
        /// A note: a read-only row, a cancelled edit (yellow).
        case note
    }

    /// The line shown, e.g. `certaintyRequiredForPress = 0.95`.
    public var text: String
    /// What it reports.
    public var kind: Kind

    /// Creates a message.
    public init(text: String, kind: Kind) {
        self.text = text
        self.kind = kind
    }
}
