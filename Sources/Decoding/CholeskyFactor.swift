import COpenBLAS

/// The Cholesky factor of a symmetric positive-definite matrix (LAPACK
/// `dpotrf`), kept to solve linear systems with it (`dpotrs`).
///
/// ```swift
/// let a = Matrix(rows: 2, columns: 2, elements: [4, 1, 1, 3])
/// let factor = try CholeskyFactor(a)
/// let x = factor.solve(Matrix(rows: 1, columns: 2, elements: [1, 2]))   // a · xᵀ = [1, 2]ᵀ
/// ```
public struct CholeskyFactor: Sendable {
    private let factor: [Double]
    /// The matrix's size.
    public let size: Int

    /// Factorises `matrix`; throws if it is not positive-definite.
    public init(_ matrix: Matrix) throws {
        precondition(matrix.rows == matrix.columns, "Cholesky needs a square matrix")
        var a = matrix.elements
        var n = Int32(matrix.rows)
        var uplo = Int8(UInt8(ascii: "U"))
        var info: Int32 = 0
        _ = Matrix.oneBLASThreadPerCaller
        // C boundary: dpotrf overwrites the (symmetric, so layout-free) matrix with its factor.
        a.withUnsafeMutableBufferPointer { p in
            dpotrf_(&uplo, &n, p.baseAddress, &n, &info)
        }
        if info > 0 { throw LinearAlgebraError.notPositiveDefinite(routine: "dpotrf", info: info) }
        if info < 0 { throw LinearAlgebraError.failed(routine: "dpotrf", info: info) }
        self.factor = a
        self.size = matrix.rows
    }

    /// Solves `A · x = b` for each row `b` of `rightHandSides`; row i of the
    /// result is the solution for row i.
    public func solve(_ rightHandSides: Matrix) -> Matrix {
        precondition(rightHandSides.columns == size, "each right-hand side must have the matrix's size")
        var b = rightHandSides.elements
        var n = Int32(size)
        var nrhs = Int32(rightHandSides.rows)
        var uplo = Int8(UInt8(ascii: "U"))
        var info: Int32 = 0
        guard nrhs > 0 else { return rightHandSides }
        // C boundary: in column-major terms our rows are dpotrs's columns, solved in place.
        factor.withUnsafeBufferPointer { a in
            b.withUnsafeMutableBufferPointer { bp in
                dpotrs_(&uplo, &n, &nrhs, a.baseAddress, &n, bp.baseAddress, &n, &info)
            }
        }
        precondition(info == 0, "dpotrs rejected arguments checked above")
        return Matrix(rows: rightHandSides.rows, columns: size, elements: b)
    }
}
