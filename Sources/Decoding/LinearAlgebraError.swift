/// A LAPACK routine refused its input.
public enum LinearAlgebraError: Error, Equatable, Sendable {
    /// The matrix that must be symmetric positive-definite is not (LAPACK `info` given).
    case notPositiveDefinite(routine: String, info: Int32)
    /// The routine failed to converge or was given an illegal argument.
    case failed(routine: String, info: Int32)
}
