/// Walks the UTF-8 bytes of a codebook text line by line and, within a line,
/// cell by cell (see Protocols/codebook.md). Used by ``CodebookTextReader``.
///
/// Lines end at `\n`, `\r\n` or `\r`; leading byte-order marks are skipped.
/// Cells are separated by runs of Unicode whitespace (`Unicode.Scalar.Properties.isWhitespace`,
/// so also e.g. a no-break space). The bytes must be valid UTF-8.
struct CodebookLineScanner {
    let bytes: [UInt8]
    /// The next byte to look at.
    private(set) var position: Int
    /// The first byte of the current line.
    private(set) var lineStart: Int
    /// The 1-based number of the current line; 0 before the first ``nextLine()``.
    private(set) var lineNumber = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var start = 0
        while start + 3 <= bytes.count, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF {
            start += 3
        }
        position = start
        lineStart = start
    }

    /// Moves to the start of the next line, skipping what is left of the current
    /// one; false when the text ends with the current line.
    mutating func nextLine() -> Bool {
        if lineNumber > 0 {
            let end = skipToLineEnd()
            guard end < bytes.count else { return false }
            position = end + (bytes[end] == 13 && end + 1 < bytes.count && bytes[end + 1] == 10 ? 2 : 1)
        }
        lineNumber += 1
        lineStart = position
        return true
    }

    /// Moves to the end of the current line (its terminator, or the end of the
    /// text) and returns that index.
    mutating func skipToLineEnd() -> Int {
        while position < bytes.count, bytes[position] != 10, bytes[position] != 13 { position += 1 }
        return position
    }

    /// One cell: its bytes and, when it is a whole number in the commonest
    /// spellings, its value.
    struct Cell {
        /// The cell's bytes.
        let range: Range<Int>
        /// The value when the cell is 1 to 15 ASCII digits, optionally followed
        /// by `.` and zeros (`17`, `1.0`, `1.`); -1 for anything else, which
        /// needs ``CodebookNumber/decimal(_:_:)``.
        let digits: Int
    }

    /// The next cell on the current line, or nil (then ``position`` is the line's end).
    @inline(__always)
    mutating func nextCell() -> Cell? {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 32 || byte == 9 || byte == 11 || byte == 12 {
                position += 1
            } else if byte == 10 || byte == 13 {
                return nil
            } else if byte >= 0x80, let length = Self.whitespaceLength(bytes, at: position) {
                position += length
            } else {
                break
            }
        }
        guard position < bytes.count else { return nil }
        let start = position
        var value = 0
        while position < bytes.count {
            let digit = bytes[position] &- 48
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            position += 1
        }
        let digitCount = position &- start
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") && digitCount > 0 {
            // `1.0`, `1.`, `17.000`: still a whole number (the SDK's rc5x5.txt writes `0.0` / `1.0`).
            position += 1
            while position < bytes.count && bytes[position] == UInt8(ascii: "0") { position += 1 }
        }
        if position == bytes.count || Self.isASCIISeparator(bytes[position]) {
            return Cell(range: start..<position, digits: digitCount <= 15 ? value : -1)
        }
        position = Self.endOfCell(bytes, from: position)
        return Cell(range: start..<position, digits: -1)
    }

    /// Reads a run of the commonest cells, a single digit after a single tab
    /// or space, into `states` from index `count` on, while there is room and
    /// the cell ends at a tab, space, line break or the end of the text; returns
    /// the new count. Anything else is left for ``nextCell()``.
    @inline(__always)
    mutating func singleDigitCells(into states: inout [UInt8], count: Int) -> Int {
        var count = count
        while count < states.count && position + 1 < bytes.count {
            let separator = bytes[position], digit = bytes[position + 1] &- 48
            guard (separator == 9 || separator == 32) && digit < 10 else { break }
            if position + 2 < bytes.count {
                let next = bytes[position + 2]
                guard next == 9 || next == 32 || next == 10 || next == 13 else { break }
            }
            states[count] = digit
            count += 1
            position += 2
        }
        return count
    }

    /// The end of the cell that goes on at `position` (static, so that callers
    /// can keep their scanner in registers).
    @inline(never)
    private static func endOfCell(_ bytes: [UInt8], from start: Int) -> Int {
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                if isASCIISeparator(byte) { break }
                position += 1 // includes control characters other than whitespace
            } else if whitespaceLength(bytes, at: position) != nil {
                break
            } else {
                position += scalarLength(lead: byte)
            }
        }
        return position
    }

    /// Whether `byte` is ASCII whitespace or a line break (`\t \n \v \f \r` or space).
    @inline(__always)
    private static func isASCIISeparator(_ byte: UInt8) -> Bool {
        byte == 32 || (9...13).contains(byte)
    }

    /// The cell's text.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The 1-based column (in Unicode scalars) of the byte at `index` on the current line.
    func column(of index: Int) -> Int {
        var column = 1
        for offset in lineStart..<index where bytes[offset] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// The byte length of the non-ASCII scalar starting at `index` if it is whitespace, else nil.
    @inline(never)
    private static func whitespaceLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let lead = bytes[index]
        let length = scalarLength(lead: lead)
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace else { return nil }
        return length
    }

    /// The byte length of a UTF-8 sequence from its (non-ASCII) lead byte.
    private static func scalarLength(lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    }
}
