import Testing
@testable import Decoding

@Suite struct LinearAlgebraTests {
    @Test func productMatchesHandComputation() {
        let a = Matrix(rows: 2, columns: 3, elements: [1, 2, 3, 4, 5, 6])
        let b = Matrix(rows: 3, columns: 2, elements: [7, 8, 9, 10, 11, 12])
        #expect(a.multiplied(by: b).elements == [58, 64, 139, 154])
        #expect(a.multiplied(by: a, transposingOther: true).elements == [14, 32, 32, 77])
        #expect(a.gram() == a.multiplied(by: a, transposingOther: true))
    }

    @Test func choleskySolvesTheSystem() throws {
        let a = Matrix(rows: 3, columns: 3, elements: [4, 1, 0, 1, 3, 1, 0, 1, 2])
        let x = try CholeskyFactor(a).solve(Matrix(rows: 1, columns: 3, elements: [1, 2, 3]))
        let back = a.multiplied(by: x, transposingOther: true)
        for (got, want) in zip(back.elements, [1.0, 2, 3]) { #expect(abs(got - want) < 1e-12) }
    }

    @Test func choleskyRejectsAnIndefiniteMatrix() {
        #expect(throws: LinearAlgebraError.self) {
            try CholeskyFactor(Matrix(rows: 2, columns: 2, elements: [1, 2, 2, 1]))
        }
    }

    @Test func generalizedEigenvectorsSatisfyTheEquation() throws {
        let a = Matrix(rows: 3, columns: 3, elements: [2, 1, 0, 1, 3, 1, 0, 1, 4])
        let b = Matrix(rows: 3, columns: 3, elements: [2, 0.5, 0, 0.5, 1, 0, 0, 0, 1])
        let (values, vectors) = try GeneralizedEigenproblem.solve(a: a, b: b)
        #expect(values == values.sorted())
        for i in 0..<3 {
            let v = Matrix(rows: 1, columns: 3, elements: vectors.row(i))
            let av = a.multiplied(by: v, transposingOther: true).elements
            let bv = b.multiplied(by: v, transposingOther: true).elements
            for k in 0..<3 { #expect(abs(av[k] - values[i] * bv[k]) < 1e-10) }
        }
    }

    @Test func shrinkageKeepsTheTrace() {
        let c = Matrix(rows: 2, columns: 2, elements: [4, 1, 1, 2])
        let s = c.shrunk(by: 0.5)
        #expect(abs(s.trace - c.trace) < 1e-12)
        #expect(s[0, 1] == 0.5)
    }
}
