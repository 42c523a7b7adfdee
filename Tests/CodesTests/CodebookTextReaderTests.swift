import Foundation
import Testing
@testable import Codes

/// Edge cases of the byte-level codebook reader: line ends, separators,
/// number spellings, and columns far along long rows.
@Suite("Codebook text reader")
struct CodebookTextReaderTests {
    private func parseError(_ text: String) -> CodebookError? {
        #expect(throws: CodebookError.self) { try CodebookFile(parsing: text, name: "bad.txt") }
    }

    /// A code row of `count` cells, 0 and 1 alternating, `separator` between them.
    private func row(_ count: Int, separator: String = "\t") -> String {
        (0..<count).map { String($0 % 2) }.joined(separator: separator)
    }

    @Test func crlfCrAndTrailingWhitespaceReadLikeLf() throws {
        let lf = "# t\n0 17 33\n0 1 0\n1 1 0\n"
        let expected = try CodebookFile(parsing: lf)
        for text in ["# t\r\n0 17 33\r\n0 1 0\r\n1 1 0\r\n", "# t\r0 17 33\r0 1 0\r1 1 0", "# t\n0 17 33 \t\n0\t1\t0\t\n1 1 0  \r\n\r\n"] {
            #expect(try CodebookFile(parsing: text) == expected)
        }
    }

    @Test func wholeNumberSpellingsAndNonAsciiSeparators() throws {
        let text = "0\u{A0}16.0\u{3000}33.\t1e2\n1.0 0. +1 1e0\n0001 -0 0.000 2.0e0\n12\t1\t255\t1\n"
        let file = try CodebookFile(parsing: text)
        #expect(file.stimulusTimes == [0, 16, 33, 100])
        #expect(file.codebook.codes == [[1, 0, 1, 1], [1, 0, 0, 2], [12, 1, 255, 1]])
    }

    @Test func nonNumericCellFarAlongALongRow() throws {
        var cells = row(300).split(separator: "\t").map(String.init)
        cells[136] = "x"
        let times = (0..<300).map(String.init).joined(separator: "\t")
        let text = "\(times)\n\(row(300))\n\(cells.joined(separator: "\t"))\n"
        let error = try #require(parseError(text))
        #expect(error == CodebookError(.nonNumericCell("x"), file: "bad.txt", line: 3, column: 2 * 136 + 1))
    }

    @Test func columnsCountUnicodeScalarsNotBytes() throws {
        let error = try #require(parseError("0 17\n0\u{A0}\u{3000}é\n"))
        #expect(error == CodebookError(.nonNumericCell("é"), file: "bad.txt", line: 2, column: 4))
        let state = try #require(parseError("0 17 33\n1 0 1\n1\u{2003}1\u{A0}3.5\n"))
        #expect(state == CodebookError(.invalidState("3.5"), file: "bad.txt", line: 3, column: 5))
    }

    @Test func raggedLongRowsNameTheFirstExtraCellOrTheLineEnd() throws {
        let times = (0..<200).map { String($0 * 17) }.joined(separator: " ")
        let long = try #require(parseError("\(times)\n\(row(200))\n\(row(203))\n"))
        #expect(long == CodebookError(.raggedRow(expected: 200, found: 203), file: "bad.txt", line: 3, column: 401))
        let short = try #require(parseError("\(times)\r\n\(row(199, separator: " ")) \t \r\n"))
        #expect(short == CodebookError(.raggedRow(expected: 200, found: 199), file: "bad.txt", line: 2, column: 401))
    }

    @Test func badCellAfterTheLastExpectedCellIsReportedBeforeTheRowLength() throws {
        let error = try #require(parseError("0 17\n0 1 1 x\n"))
        #expect(error == CodebookError(.nonNumericCell("x"), file: "bad.txt", line: 2, column: 7))
    }

    @Test func multiDigitCellsAmongSingleDigits() throws {
        let file = try CodebookFile(parsing: "0 1 2 3 4\n0\t1\t12\t1\t0\n9 1 0 100 7\n")
        #expect(file.codebook.codes == [[0, 1, 12, 1, 0], [9, 1, 0, 100, 7]])
        #expect(try #require(parseError("0 1 2\n0 1 10.5\n")) ==
            CodebookError(.invalidState("10.5"), file: "bad.txt", line: 2, column: 5))
    }

    @Test func largeBookLoadsExactly() throws {
        let gold = try GoldCodes.make(taps1: [0, 0, 0, 1, 0, 0, 0, 0, 1], taps2: [0, 0, 1, 1, 0, 1, 0, 0, 1],
                                      includingMSequences: true).modulated()
        let saved = CodebookFile(codebook: gold)
        let start = Date()
        let loaded = try CodebookFile(parsing: saved.text)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(loaded == saved)
        #expect(loaded.codebook.count == 513 && loaded.codebook.length == 1022)
    }
}
