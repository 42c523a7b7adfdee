import Foundation
import Testing
@testable import Codes

@Suite("MindAffect codebook text format")
struct CodebookFileTests {
    @Test(arguments: [("mgold_61_6521_psk_60hz.txt", 47), ("mgold_65_6532_psk_60hz.txt", 65)])
    func sdkCodebooksLoad(name: String, codes: Int) throws {
        let file = try CodebookFile(contentsOfFile: CodesFixtures.path(name))
        #expect(file.codebook.count == codes)
        #expect(file.codebook.length == 126)
        #expect(file.stimulusTimes.count == 126)
        #expect(Array(file.stimulusTimes.prefix(4)) == [0, 17, 33, 50])
        #expect(file.comments == ["gold @ 60hz"])
        #expect(file.codebook.codes.allSatisfy { $0.allSatisfy { $0 <= 1 } })
        #expect(CodebookStatistics(file.codebook).balance.mean == 0.5)
    }

    @Test func sdkCodebookRowsAreCodesInFileOrder() throws {
        // First row of mgold_65 (one code across 126 time points), as in the file.
        let file = try CodebookFile(contentsOfFile: CodesFixtures.path("mgold_65_6532_psk_60hz.txt"))
        #expect(Array(file.codebook[0].prefix(12)) == [0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0])
        #expect(Array(file.codebook[1].prefix(8)) == [1, 0, 0, 1, 1, 0, 0, 1])
    }

    @Test func saveThenLoadRoundTrips() throws {
        let folder = try CodesFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("standard.txt").path
        let saved = CodebookFile(codebook: .standard, comments: ["built-in", "#not a dimension line"])
        try saved.write(toFile: path)
        let loaded = try CodebookFile(contentsOfFile: path)
        #expect(loaded == saved)
        #expect(loaded.codebook == .standard)
        #expect(Array(loaded.stimulusTimes.prefix(5)) == [0, 17, 33, 50, 67])
    }

    @Test func sdkFileSurvivesRenderAndParse() throws {
        let original = try CodebookFile(contentsOfFile: CodesFixtures.path("mgold_61_6521_psk_60hz.txt"))
        #expect(try CodebookFile(parsing: original.text) == original)
    }

    @Test func customStatesTimesAndSeparatorsAreRead() throws {
        let text = "\u{FEFF}  # title\r\n0 1.5 3\r\n\r\n0.0\t1e0 2\n 3  0\t+1\n"
        let file = try CodebookFile(parsing: text, name: "inline")
        #expect(file.stimulusTimes == [0, 1.5, 3])
        #expect(file.codebook.codes == [[0, 1, 2], [3, 0, 1]])
        #expect(file.comments == ["title"])
        #expect(throws: CodebookError(.stimulusTimeCount(expected: 3, found: 2))) {
            try CodebookFile(codebook: file.codebook, stimulusTimes: [0, 1])
        }
    }
}
