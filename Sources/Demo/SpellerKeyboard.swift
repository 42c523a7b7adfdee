import NoiseTagging

/// The demo's keyboard unit: 26 letter keys, a space key and a delete key,
/// each a brain button with a fixed Utopia object ID (1…28, so a simulated
/// user and a recording can name them), laid out 7 keys to a row. A press
/// (by brain or by touch) types its key as its feedback starts, so the user
/// sees the new text before the next trial; ``typed`` holds the text so far.
///
/// ```swift
/// let keyboard = SpellerKeyboard()
/// controller.push(view: keyboard.view, forNoiseTaggingWithDelegate: keyboard)
/// // … a brain press on "H" …
/// keyboard.typed          // "H"
/// ```
public final class SpellerKeyboard: NoiseTagDelegate {
    /// The unit's view, holding every key.
    public let view = NoiseTagView()
    /// The keys in reading order: A…Z, space, delete.
    public let keys: [NoiseTagButton]
    /// The text typed so far.
    public private(set) var typed = ""
    /// Keys typed so far (letters, space and delete), oldest first.
    public private(set) var keystrokes: [String] = []

    /// The identifier of the space key.
    public static let space = "space"
    /// The identifier of the delete key.
    public static let delete = "del"
    /// Keys per row.
    public static let columns = 7
    /// A key's size in cells.
    public static let keyWidth = 7.0, keyHeight = 3.0

    /// Creates the keyboard; its keys' object IDs are 1…28 in reading order.
    public init() {
        let labels = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + [Self.space, Self.delete]
        keys = labels.enumerated().map { index, label in
            let frame = NoiseTagRect(x: Double(index % Self.columns) * (Self.keyWidth + 1),
                                     y: Double(index / Self.columns) * (Self.keyHeight + 1),
                                     width: Self.keyWidth, height: Self.keyHeight)
            return NoiseTagButton(identifier: label, label: label, frame: frame, customUtopiaObjectID: index + 1)
        }
        for key in keys { view.add(key) }
    }

    /// The key that types `character` (a letter A–Z or a space), nil for any other.
    public func key(typing character: Character) -> NoiseTagButton? {
        let name = character == " " ? Self.space : String(character).uppercased()
        return keys.first { $0.noiseTagging.identifier == name }
    }

    /// The delete key.
    public var deleteKey: NoiseTagButton { keys[keys.count - 1] }

    /// The key a keyboard byte presses by touch: `A`–`Z` (upper case, as
    /// lower-case letters are the demo's commands), `_` for space and
    /// Backspace (0x7F or 0x08) for delete.
    public func key(forTouch byte: UInt8) -> NoiseTagButton? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return keys[Int(byte - UInt8(ascii: "A"))]
        case UInt8(ascii: "_"): return keys[26]
        case 0x7F, 0x08: return deleteKey
        default: return nil
        }
    }

    /// Forgets the typed text.
    public func clear() {
        typed = ""
        keystrokes = []
    }

    /// Gives every key its typing action, run as the press feedback starts.
    public func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for key in keys {
            let name = key.noiseTagging.identifier ?? key.label
            try? key.noiseTagging.addAction(timing: 0) { [unowned self] in self.type(name) }
        }
    }

    /// Names the unit in events and recordings.
    public func contextDescription() -> String? { "speller keyboard" }

    private func type(_ name: String) {
        keystrokes.append(name)
        switch name {
        case Self.space: typed.append(" ")
        case Self.delete: if !typed.isEmpty { typed.removeLast() }
        default: typed.append(name)
        }
    }
}
