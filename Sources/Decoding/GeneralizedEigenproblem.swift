import COpenBLAS

/// The symmetric-definite generalised eigenproblem `A·v = λ·B·v` (LAPACK
/// `dsygv`), the core of canonical correlation analysis.
public enum GeneralizedEigenproblem {
    /// Eigenvalues in ascending order and the matching B-orthonormal
    /// eigenvectors, one per row of `vectors`.
    public static func solve(a: Matrix, b: Matrix) throws -> (values: [Double], vectors: Matrix) {
        precondition(a.rows == a.columns && b.rows == b.columns && a.rows == b.rows,
                     "A and B must be square and of one size")
        var itype: Int32 = 1
        var jobz = Int8(UInt8(ascii: "V"))
        var uplo = Int8(UInt8(ascii: "U"))
        var n = Int32(a.rows)
        var aElements = a.elements
        var bElements = b.elements
        var values = [Double](repeating: 0, count: a.rows)
        var info: Int32 = 0
        var lwork = Int32(max(1, 3 * a.rows - 1) * 8)
        var work = [Double](repeating: 0, count: Int(lwork))
        _ = Matrix.oneBLASThreadPerCaller
        // C boundary: dsygv overwrites A with the eigenvectors (column-major, so
        // our rows) and B with its Cholesky factor.
        aElements.withUnsafeMutableBufferPointer { ap in
            bElements.withUnsafeMutableBufferPointer { bp in
                values.withUnsafeMutableBufferPointer { wp in
                    work.withUnsafeMutableBufferPointer { workp in
                        dsygv_(&itype, &jobz, &uplo, &n, ap.baseAddress, &n, bp.baseAddress, &n,
                               wp.baseAddress, workp.baseAddress, &lwork, &info)
                    }
                }
            }
        }
        if info > a.rows { throw LinearAlgebraError.notPositiveDefinite(routine: "dsygv", info: info) }
        if info != 0 { throw LinearAlgebraError.failed(routine: "dsygv", info: info) }
        return (values, Matrix(rows: a.rows, columns: a.rows, elements: aElements))
    }
}
