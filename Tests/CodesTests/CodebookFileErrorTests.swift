import Foundation
import Testing
@testable import Codes

@Suite("Malformed codebook files")
struct CodebookFileErrorTests {
    private func parseError(_ text: String) -> CodebookError? {
        #expect(throws: CodebookError.self) { try CodebookFile(parsing: text, name: "bad.txt") }
    }

    @Test(arguments: [
        // text, reason, line, column
        ("# c\n0\t17\t33\n0\t1\tx\n", CodebookError.Reason.nonNumericCell("x"), 3, 5),
        ("0 abc\n0 1\n", .nonNumericCell("abc"), 1, 3),
        ("0 17 33\n0 1 0\n1 0x1 0\n", .nonNumericCell("0x1"), 3, 3),
        ("0 17 33\n\n0 1\n", .raggedRow(expected: 3, found: 2), 3, 4),
        ("0 17\n0 1 1\n", .raggedRow(expected: 2, found: 3), 2, 5),
        ("0 17\n0 2.5\n", .invalidState("2.5"), 2, 3),
        ("0 17\n  0 256\n", .invalidState("256"), 2, 5),
        ("0 17\n-1 0\n", .invalidState("-1"), 2, 1),
        ("0 1 0\n1 0 1\n", .decreasingStimulusTime(previous: 1, found: 0), 1, 5),
        ("0\t17\r\n0\tnan\r\n", .nonNumericCell("nan"), 2, 3),
    ] as [(String, CodebookError.Reason, Int, Int)])
    func cellErrorsNameLineAndColumn(text: String, reason: CodebookError.Reason, line: Int, column: Int) throws {
        let error = try #require(parseError(text))
        #expect(error == CodebookError(reason, file: "bad.txt", line: line, column: column))
        #expect(error.description.hasPrefix("bad.txt:\(line):\(column): "))
    }

    @Test func aCellIsQuotedOnOneLineWithItsControlCharactersEscaped() throws {
        let plain = try #require(parseError("0 17\n0 x1\n"))
        #expect(plain.description == "bad.txt:2:3: non-numeric cell \"x1\" (expected a number such as 0 or 1)")
        // A terminal escape inside a cell (whitespace splits cells, so no line break can get in).
        let escaped = try #require(parseError("0 17\n0 \u{1B}[2J\n"))
        #expect(escaped.description == "bad.txt:2:3: non-numeric cell \"\\u{1B}[2J\" (expected a number such as 0 or 1)")
        #expect(!escaped.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        // A number, but beyond what a Double holds: said so, not "non-numeric".
        #expect(try #require(parseError("0 17\n0 1e400\n")).description
            == "bad.txt:2:3: cell \"1e400\" is a number too large to hold (expected a number such as 0 or 1)")
        #expect(try #require(parseError("0 17\n0 inf\n")).description.contains("non-numeric cell \"inf\""))
        // A binary file read as text is one cell of thousands: its first 40 characters and its length.
        let long = try #require(parseError("0 17\n0 " + String(repeating: "x", count: 100_000) + "\n"))
        #expect(long.description == "bad.txt:2:3: non-numeric cell \"\(String(repeating: "x", count: 40))\" (100000 characters) (expected a number such as 0 or 1)")
    }

    @Test(arguments: ["", "# only a comment\n\n   \n", "\r\n\r\n"])
    func emptyFiles(text: String) throws {
        let error = try #require(parseError(text))
        #expect(error == CodebookError(.emptyFile, file: "bad.txt"))
        #expect(error.description.hasPrefix("bad.txt: empty codebook"))
    }

    @Test func timeRowWithoutCodes() throws {
        let error = try #require(parseError("#stimTime: (1,3)\n0 17 33\n\n#stimSeq : (0,3)\n"))
        #expect(error == CodebookError(.noCodes, file: "bad.txt"))
    }

    @Test func missingFile() throws {
        let path = "/nonexistent-folder/codes.txt"
        let error = try #require(#expect(throws: CodebookError.self) { try CodebookFile(contentsOfFile: path) })
        #expect(error == CodebookError(.fileNotFound, file: path))
        #expect(error.description == "/nonexistent-folder/codes.txt: no such file")
    }

    @Test func binaryFileAndFolder() throws {
        let folder = try CodesFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("binary.txt").path
        try Data([0xFF, 0xFE, 0x00, 0x31]).write(to: URL(fileURLWithPath: path))
        #expect(throws: CodebookError(.notText, file: path)) { try CodebookFile(contentsOfFile: path) }
        #expect(throws: CodebookError(.unreadableFile("it is a directory"), file: folder.path)) {
            try CodebookFile(contentsOfFile: folder.path)
        }
    }

    @Test func unwritablePaths() throws {
        let file = CodebookFile(codebook: .standard)
        let missing = "/nonexistent-folder/out.txt"
        #expect(throws: CodebookError(.unwritableFile("no such folder: /nonexistent-folder"), file: missing)) {
            try file.write(toFile: missing)
        }
        let folder = try CodesFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CodebookError(.unwritableFile("it is a directory"), file: folder.path)) {
            try file.write(toFile: folder.path)
        }
    }
}
