import Testing
@testable import Codes

@Suite("Codebook")
struct CodebookTests {
    @Test func standardCodebookIsTheModulatedGoldFamily() throws {
        let book = Codebook.standard
        #expect(book.count >= 63)
        #expect(book.count == 65 && book.length == 126)
        #expect(book == (try GoldCodes.make(includingMSequences: true)).modulated())
        #expect(Set(book.codes).count == book.count)
    }

    @Test func rejectsEmptyBooksEmptyCodesAndRaggedRows() {
        #expect(throws: CodebookError(.noCodes)) { try Codebook(codes: []) }
        #expect(throws: CodebookError(.emptyCode(index: 0))) { try Codebook(codes: [[], []]) }
        #expect(throws: CodebookError(.raggedCode(index: 2, expected: 3, found: 2))) {
            try Codebook(codes: [[0, 1, 0], [1, 1, 0], [1, 0]])
        }
    }

    @Test func countLengthAndSubscript() throws {
        let book = try Codebook(codes: [[0, 1, 1], [1, 0, 2]])
        #expect(book.count == 2 && book.length == 3)
        #expect(book[1] == [1, 0, 2])
    }

    @Test func modulationDoublesAndXorsWithTheClock() throws {
        #expect(try Codebook(codes: [[0, 1]]).modulated().codes == [[1, 0, 0, 1]])
        #expect(try Codebook(codes: [[1, 1, 0]]).modulated().length == 6)
    }

    @Test func cyclicShiftRotatesEveryCode() throws {
        let book = try Codebook(codes: [[1, 2, 3, 4], [5, 6, 7, 8]])
        #expect(book.cyclicallyShifted(by: 1).codes == [[2, 3, 4, 1], [6, 7, 8, 5]])
        #expect(book.cyclicallyShifted(by: -1).codes == [[4, 1, 2, 3], [8, 5, 6, 7]])
        #expect(book.cyclicallyShifted(by: 9) == book.cyclicallyShifted(by: 1))
        #expect(book.cyclicallyShifted(by: 0) == book)
        #expect(book.cyclicallyShifted(by: [0, 2]).codes == [[1, 2, 3, 4], [7, 8, 5, 6]])
    }

    @Test func prefixKeepsTheFirstCodes() {
        #expect(Codebook.standard.prefix(3)?.count == 3)
        #expect(Codebook.standard.prefix(1000) == Codebook.standard)
        #expect(Codebook.standard.prefix(0) == nil)
    }
}
