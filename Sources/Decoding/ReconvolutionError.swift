/// Why a reconvolution CCA could not be fitted.
public enum ReconvolutionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer trials or classes than a fit needs.
    case notEnoughData(String)
    /// Trials, labels and codes disagree in size.
    case shapeMismatch(String)
    /// A trial holds NaN or infinite samples.
    case nonFinite(trial: Int)
    /// The covariance matrices were singular even after shrinkage.
    case singular(LinearAlgebraError)
    /// A setting the data cannot honour (a low-pass above the Nyquist frequency).
    case unusableSetting(String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .notEnoughData(let s): return "not enough calibration data: \(s)"
        case .shapeMismatch(let s): return "calibration data shapes disagree: \(s)"
        case .nonFinite(let trial): return "trial \(trial) holds NaN or infinite samples"
        case .singular(let e): return "covariance is singular (\(e)); raise gammaX/gammaM or check that the codes flash"
        case .unusableSetting(let s): return s
        }
    }
}
