import COpenBLAS

/// A dense matrix of `Double`s in row-major order, with the few BLAS products
/// the decoder needs.
///
/// ```swift
/// var a = Matrix(rows: 2, columns: 3)
/// a[0, 0] = 1; a[1, 2] = 2
/// let gram = a.multiplied(by: a, transposingOther: true)   // a · aᵀ, 2 × 2
/// print(gram[1, 1])   // 4.0
/// ```
public struct Matrix: Equatable, Sendable {
    /// Number of rows.
    public let rows: Int
    /// Number of columns.
    public let columns: Int
    /// The elements, row after row.
    public var elements: [Double]

    /// A zero matrix.
    public init(rows: Int, columns: Int) {
        precondition(rows >= 0 && columns >= 0, "a matrix has no negative size")
        self.rows = rows
        self.columns = columns
        self.elements = [Double](repeating: 0, count: rows * columns)
    }

    /// A matrix from its elements in row-major order.
    public init(rows: Int, columns: Int, elements: [Double]) {
        precondition(elements.count == rows * columns, "element count must be rows × columns")
        self.rows = rows
        self.columns = columns
        self.elements = elements
    }

    /// The identity matrix of size `n`.
    public static func identity(_ n: Int) -> Matrix {
        var m = Matrix(rows: n, columns: n)
        for i in 0..<n { m[i, i] = 1 }
        return m
    }

    /// The element at `row`, `column`.
    public subscript(row: Int, column: Int) -> Double {
        get { elements[row * columns + column] }
        set { elements[row * columns + column] = newValue }
    }

    /// One row as an array.
    public func row(_ index: Int) -> [Double] {
        Array(elements[index * columns..<(index + 1) * columns])
    }

    /// The transpose.
    public func transposed() -> Matrix {
        var t = Matrix(rows: columns, columns: rows)
        for r in 0..<rows {
            for c in 0..<columns { t.elements[c * rows + r] = elements[r * columns + c] }
        }
        return t
    }

    /// The product `self · other` (or `self · otherᵀ`), computed by BLAS `dgemm`.
    public func multiplied(by other: Matrix, transposingOther: Bool = false) -> Matrix {
        let inner = transposingOther ? other.columns : other.rows
        precondition(columns == inner, "inner dimensions must agree")
        let outColumns = transposingOther ? other.rows : other.columns
        var out = Matrix(rows: rows, columns: outColumns)
        guard rows > 0, outColumns > 0, columns > 0 else { return out }
        _ = Self.oneBLASThreadPerCaller
        // C boundary: dgemm reads both operands and writes the result through pointers.
        elements.withUnsafeBufferPointer { a in
            other.elements.withUnsafeBufferPointer { b in
                out.elements.withUnsafeMutableBufferPointer { c in
                    cblas_dgemm(
                        CblasRowMajor, CblasNoTrans, transposingOther ? CblasTrans : CblasNoTrans,
                        Int32(rows), Int32(outColumns), Int32(columns), 1.0,
                        a.baseAddress, Int32(columns), b.baseAddress, Int32(other.columns),
                        0.0, c.baseAddress, Int32(outColumns))
                }
            }
        }
        return out
    }

    /// `self · selfᵀ`, a symmetric matrix, computed by BLAS `dsyrk`.
    public func gram() -> Matrix {
        var out = Matrix(rows: rows, columns: rows)
        guard rows > 0, columns > 0 else { return out }
        _ = Self.oneBLASThreadPerCaller
        // C boundary: dsyrk reads the matrix and writes the upper triangle of the result.
        elements.withUnsafeBufferPointer { a in
            out.elements.withUnsafeMutableBufferPointer { c in
                cblas_dsyrk(
                    CblasRowMajor, CblasUpper, CblasNoTrans, Int32(rows), Int32(columns),
                    1.0, a.baseAddress, Int32(columns), 0.0, c.baseAddress, Int32(rows))
            }
        }
        for r in 0..<rows {
            for c in 0..<r { out.elements[r * rows + c] = out.elements[c * rows + r] }
        }
        return out
    }

    /// Element-wise sum.
    public static func + (lhs: Matrix, rhs: Matrix) -> Matrix {
        precondition(lhs.rows == rhs.rows && lhs.columns == rhs.columns, "sizes must agree")
        return Matrix(rows: lhs.rows, columns: lhs.columns,
                      elements: zip(lhs.elements, rhs.elements).map { $0 + $1 })
    }

    /// Every element times `scale`.
    public func scaled(by scale: Double) -> Matrix {
        Matrix(rows: rows, columns: columns, elements: elements.map { $0 * scale })
    }

    /// The sum of the diagonal.
    public var trace: Double {
        var t = 0.0
        for i in 0..<min(rows, columns) { t += self[i, i] }
        return t
    }

    /// A symmetric matrix shrunk towards a scaled identity:
    /// `(1 − γ)·C + γ·(trace(C)/n)·I`, the regularisation pyntbci's `gamma_x` /
    /// `gamma_m` apply.
    public func shrunk(by gamma: Double) -> Matrix {
        precondition(rows == columns, "shrinkage needs a square matrix")
        guard gamma > 0, rows > 0 else { return self }
        var out = scaled(by: 1 - gamma)
        let nu = gamma * trace / Double(rows)
        for i in 0..<rows { out[i, i] += nu }
        return out
    }

    /// OpenBLAS's own worker threads, set once to one per caller before
    /// any BLAS or LAPACK call: the decoder's matrices are small (channels
    /// and lags, not thousands), so its threads spin more than they work,
    /// and the decoder runs its folds on the cores itself.
    static let oneBLASThreadPerCaller: Void = openblas_set_num_threads(1)
}
