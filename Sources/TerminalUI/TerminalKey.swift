/// A key as a scene sees it once escape sequences are put together: a
/// plain byte, an arrow, or a lone Esc.
///
/// ```swift
/// var decoder = TerminalKeyDecoder()
/// for key in decoder.feed(0x1B) + decoder.feed(UInt8(ascii: "[")) + decoder.feed(UInt8(ascii: "A")) {
///     if key == .up { moveSelectionUp() }
/// }
/// ```
public enum TerminalKey: Equatable, Sendable {
    /// A byte that starts no escape sequence (a letter, Enter, Backspace…).
    case byte(UInt8)
    /// Cursor up: `ESC [ A` (or `ESC O A` in application cursor mode).
    case up
    /// Cursor down: `ESC [ B` (or `ESC O B`).
    case down
    /// Cursor right: `ESC [ C` (or `ESC O C`).
    case right
    /// Cursor left: `ESC [ D` (or `ESC O D`).
    case left
    /// The Esc key pressed on its own.
    case escape
}
