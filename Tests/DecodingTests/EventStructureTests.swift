import Testing
@testable import Decoding

@Suite struct EventStructureTests {
    /// Onsets near both ends of the trial and lags before and after them, so every edge case is met.
    static let cases: [EventStructure] = [
        EventStructure(onsets: [[0, 3, 4, 9, 17, 18], [2, 6, 11, 19]], samples: 20, firstLag: 0, lagCount: 5),
        EventStructure(onsets: [[1, 5, 12], [3, 8, 15, 19]], samples: 20, firstLag: -3, lagCount: 9),
        EventStructure(onsets: [[0, 7, 13], [2], []], samples: 16, firstLag: 4, lagCount: 6),
    ]

    @Test(arguments: cases) func sparseProductsEqualTheDenseOnes(_ m: EventStructure) {
        let dense = m.dense()
        #expect(m.gram() == dense.gram())
        #expect(m.rowSums() == (0..<dense.rows).map { r in dense.elements[(r * dense.columns)..<((r + 1) * dense.columns)].reduce(0, +) })
        var x = Matrix(rows: 3, columns: m.samples)
        for i in x.elements.indices { x.elements[i] = Double((i * 37) % 11) - 5 }
        #expect(m.product(x) == x.multiplied(by: dense, transposingOther: true))
    }

    @Test func aWeightedSumOfGramsIsTheSumOfEachStructuresGram() {
        let a = EventStructure(onsets: [[0, 3, 9, 17], [2, 11, 19]], samples: 20, firstLag: -2, lagCount: 6)
        let b = EventStructure(onsets: [[1, 5, 6, 15], [8]], samples: 20, firstLag: -2, lagCount: 6)
        let sum = EventStructure.weightedGram([(a, 2), (b, 3)])
        let expected = a.dense().gram().scaled(by: 2) + b.dense().gram().scaled(by: 3)
        #expect(sum == expected)
    }
}
