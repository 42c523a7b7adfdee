import Foundation

/// Reads the MindAffect codebook text format into stimulus times, codes and
/// comments (see Protocols/codebook.md), working on the text's UTF-8 bytes.
/// Used by ``CodebookFile``.
struct CodebookTextReader {
    private typealias Cell = CodebookLineScanner.Cell

    let file: String?
    private(set) var times: [Double] = []
    private(set) var codes: [[UInt8]] = []
    private(set) var comments: [String] = []

    init(text: String, file: String?) throws(CodebookError) {
        try self.init(bytes: Array(text.utf8), file: file)
    }

    private init(bytes: [UInt8], file: String?) throws(CodebookError) {
        self.file = file
        var scanner = CodebookLineScanner(bytes: bytes)
        var haveTimes = false
        while scanner.nextLine() {
            guard let first = scanner.nextCell() else { continue }
            if isComment(first, scanner) {
                let end = scanner.skipToLineEnd()
                keepComment(scanner.text(first.range.lowerBound + 1..<end))
            } else if !haveTimes {
                try readTimes(first, &scanner)
                haveTimes = true
            } else {
                codes.append(try readStates(first, &scanner))
            }
        }
        guard haveTimes else { throw CodebookError(.emptyFile, file: file) }
        guard !codes.isEmpty else { throw CodebookError(.noCodes, file: file) }
    }

    /// Whether the line's first cell starts with the character `#` (a `#`
    /// followed by a combining mark is a different character).
    private func isComment(_ cell: Cell, _ scanner: CodebookLineScanner) -> Bool {
        let bytes = scanner.bytes, start = cell.range.lowerBound
        guard bytes[start] == UInt8(ascii: "#") else { return false }
        return cell.range.count == 1 || bytes[start + 1] < 0x80 || scanner.text(cell.range).hasPrefix("#")
    }

    /// Keeps the text after `#` (less one space), unless it is a dimension line.
    private mutating func keepComment(_ text: String) {
        var body = text
        if body.hasPrefix(" ") { body.removeFirst() }
        let trimmed = body.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("stimTime") || trimmed.hasPrefix("stimSeq") { return }
        comments.append(body)
    }

    private mutating func readTimes(_ first: Cell, _ scanner: inout CodebookLineScanner) throws(CodebookError) {
        var cell: Cell? = first
        while let current = cell {
            let value: Double
            if current.digits >= 0 {
                value = Double(current.digits)
            } else if let parsed = CodebookNumber.decimal(scanner.bytes, current.range) {
                value = parsed
            } else {
                throw error(.nonNumericCell(scanner.text(current.range)), at: current, scanner)
            }
            if let previous = times.last, value < previous {
                throw error(.decreasingStimulusTime(previous: previous, found: value), at: current, scanner)
            }
            times.append(value)
            cell = scanner.nextCell()
        }
    }

    /// One code row; every cell is checked before the row's length is.
    private func readStates(_ first: Cell, _ scanner: inout CodebookLineScanner) throws(CodebookError) -> [UInt8] {
        let expected = times.count
        var local = scanner // a local copy keeps the position in a register
        defer { scanner = local }
        // Filled by index rather than appended to, so that the fast path stops at `expected` cells.
        var states = [UInt8](repeating: 0, count: expected)
        var found = 0, firstExtra = -1
        var cell: Cell? = first
        while let current = cell {
            let value: UInt8
            if UInt(bitPattern: current.digits) <= 255 {
                value = UInt8(truncatingIfNeeded: current.digits)
            } else {
                switch generalState(current, local) {
                case .success(let state): value = state
                case .failure(let error): throw error
                }
            }
            if found < expected {
                states[found] = value
            } else if firstExtra < 0 {
                firstExtra = current.range.lowerBound
            }
            found += 1
            found = local.singleDigitCells(into: &states, count: found)
            cell = local.nextCell()
        }
        if found != expected {
            // Too many: the first extra cell; too few: just past the line's end.
            let index = firstExtra >= 0 ? firstExtra : local.position
            throw CodebookError(.raggedRow(expected: expected, found: found),
                                file: file, line: local.lineNumber, column: local.column(of: index))
        }
        return states
    }

    /// A state cell that is not a plain whole number from 0 to 255 (`1e0`, `+1`, `2.5`, `x`, …), or the error.
    @inline(never)
    private func generalState(_ cell: Cell, _ scanner: CodebookLineScanner) -> Result<UInt8, CodebookError> {
        guard let value = CodebookNumber.decimal(scanner.bytes, cell.range) else {
            return .failure(error(.nonNumericCell(scanner.text(cell.range)), at: cell, scanner))
        }
        guard value == value.rounded(), (0...255).contains(value) else {
            return .failure(error(.invalidState(scanner.text(cell.range)), at: cell, scanner))
        }
        return .success(UInt8(value))
    }

    private func error(_ reason: CodebookError.Reason, at cell: Cell, _ scanner: CodebookLineScanner) -> CodebookError {
        CodebookError(reason, file: file, line: scanner.lineNumber, column: scanner.column(of: cell.range.lowerBound))
    }
}
