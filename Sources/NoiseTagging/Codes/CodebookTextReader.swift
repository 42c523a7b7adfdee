import Foundation

/// Reads the MindAffect codebook text format into stimulus times, codes and
/// comments (see Protocols/codebook.md). Used by ``CodebookFile``.
struct CodebookTextReader {
    /// One whitespace-separated cell and its 1-based column.
    struct Cell {
        let text: String
        let column: Int
    }

    let file: String?
    private(set) var times: [Double] = []
    private(set) var codes: [[UInt8]] = []
    private(set) var comments: [String] = []

    init(text: String, file: String?) throws(CodebookError) {
        self.file = file
        var timeRowLine: Int?
        for (index, line) in Self.lines(of: text).enumerated() {
            let number = index + 1
            let cells = Self.cells(of: line)
            guard let first = cells.first else { continue }
            if first.text.hasPrefix("#") {
                keepComment(line)
            } else if timeRowLine == nil {
                times = try readTimes(cells, line: number)
                timeRowLine = number
            } else {
                codes.append(try readStates(cells, line: number, lineLength: line.count))
            }
        }
        guard timeRowLine != nil else { throw CodebookError(.emptyFile, file: file) }
        guard !codes.isEmpty else { throw CodebookError(.noCodes, file: file) }
    }

    private mutating func keepComment(_ line: [Unicode.Scalar]) {
        var body = String(String.UnicodeScalarView(line.drop { $0 != "#" }.dropFirst()))
        if body.hasPrefix(" ") { body.removeFirst() }
        let trimmed = body.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("stimTime") || trimmed.hasPrefix("stimSeq") { return }
        comments.append(body)
    }

    private func readTimes(_ cells: [Cell], line: Int) throws(CodebookError) -> [Double] {
        var result: [Double] = []
        for cell in cells {
            guard let value = Self.number(cell.text) else {
                throw CodebookError(.nonNumericCell(cell.text), file: file, line: line, column: cell.column)
            }
            if let previous = result.last, value < previous {
                throw CodebookError(.decreasingStimulusTime(previous: previous, found: value),
                                    file: file, line: line, column: cell.column)
            }
            result.append(value)
        }
        return result
    }

    private func readStates(_ cells: [Cell], line: Int, lineLength: Int) throws(CodebookError) -> [UInt8] {
        var states: [UInt8] = []
        states.reserveCapacity(cells.count)
        for cell in cells {
            guard let value = Self.number(cell.text) else {
                throw CodebookError(.nonNumericCell(cell.text), file: file, line: line, column: cell.column)
            }
            guard value == value.rounded(), (0...255).contains(value) else {
                throw CodebookError(.invalidState(cell.text), file: file, line: line, column: cell.column)
            }
            states.append(UInt8(value))
        }
        if states.count != times.count {
            let column = states.count > times.count ? cells[times.count].column : lineLength + 1
            throw CodebookError(.raggedRow(expected: times.count, found: states.count),
                                file: file, line: line, column: column)
        }
        return states
    }

    /// Lines split at `\n`, `\r\n` or `\r`, without their terminators or a leading byte-order mark.
    static func lines(of text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var afterCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r":
                lines.append(current); current = []; afterCR = true
            case "\n":
                if !afterCR { lines.append(current); current = [] }
                afterCR = false
            default:
                if !(lines.isEmpty && current.isEmpty && scalar == "\u{FEFF}") { current.append(scalar) }
                afterCR = false
            }
        }
        lines.append(current)
        return lines
    }

    /// The whitespace-separated cells of a line with their 1-based columns.
    static func cells(of line: [Unicode.Scalar]) -> [Cell] {
        var cells: [Cell] = []
        var start: Int?
        for index in 0...line.count {
            if index == line.count || line[index].properties.isWhitespace {
                if let begin = start {
                    cells.append(Cell(text: String(String.UnicodeScalarView(line[begin..<index])), column: begin + 1))
                    start = nil
                }
            } else if start == nil {
                start = index
            }
        }
        return cells
    }

    /// A finite decimal number (`[+-]digits[.digits][e[+-]digits]`), or nil.
    static func number(_ text: String) -> Double? {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest.removeFirst() }
        let mantissa = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let digits = mantissa.filter(\.isNumber).count
        guard digits > 0, mantissa.filter({ $0 == "." }).count <= 1 else { return nil }
        rest = rest.dropFirst(mantissa.count)
        if let e = rest.first, e == "e" || e == "E" {
            rest.removeFirst()
            if rest.first == "+" || rest.first == "-" { rest.removeFirst() }
            guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            rest = ""
        }
        guard rest.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
