/// Appending the few escape sequences the screen uses, digits written in
/// place (no `String` on the frame path).
extension Array where Element == UInt8 {
    /// Appends a non-negative number in decimal.
    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        if value < 10 {
            append(UInt8(48 + value))
        } else if value < 100 {
            append(UInt8(48 + value / 10)); append(UInt8(48 + value % 10))
        } else if value < 1000 {
            append(UInt8(48 + value / 100)); append(UInt8(48 + (value / 10) % 10)); append(UInt8(48 + value % 10))
        } else {
            appendDecimal(value / 10)
            append(UInt8(48 + value % 10))
        }
    }

    /// `ESC [`.
    @inline(__always)
    mutating func appendCSI() {
        append(0x1B); append(0x5B)
    }

    /// Cursor to 0-based `row`, `column` (CUP `ESC [ r ; c H`, 1-based on the wire).
    @inline(__always)
    mutating func appendCursorPosition(row: Int, column: Int) {
        appendCSI(); appendDecimal(row + 1); append(0x3B); appendDecimal(column + 1); append(0x48)
    }

    /// Cursor forward `count` cells (CUF `ESC [ n C`, `ESC [ C` for one).
    @inline(__always)
    mutating func appendCursorForward(_ count: Int) {
        appendCSI()
        if count > 1 { appendDecimal(count) }
        append(0x43)
    }

    /// The parameters of one colour: `38;2;r;g;b` / `48;2;r;g;b`, or `38;5;n` / `48;5;n`.
    @inline(__always)
    mutating func appendColorParameters(_ color: TerminalRGB, background: Bool, mode: TerminalColorMode) {
        append(background ? 0x34 : 0x33); append(0x38); append(0x3B)
        switch mode {
        case .trueColor:
            append(0x32); append(0x3B)
            appendDecimal(Int(color.red)); append(0x3B)
            appendDecimal(Int(color.green)); append(0x3B)
            appendDecimal(Int(color.blue))
        case .palette256:
            append(0x35); append(0x3B)
            appendDecimal(Int(XTerm256.index(nearest: color)))
        }
    }

    /// A character's UTF-8 bytes.
    @inline(__always)
    mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            append(UInt8(value))
        } else {
            for unit in UTF8.encode(scalar)! { append(unit) }
        }
    }
}
