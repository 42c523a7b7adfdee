/// Why a reconvolution CCA could not be fitted.
public enum ReconvolutionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer trials or classes than a fit needs.
    case notEnoughData(String)
    /// Trials, labels and codes disagree in size.
    case shapeMismatch(String)
    /// A trial holds NaN or infinite samples.
    case nonFinite(trial: Int)
    /// A covariance was singular even after shrinkage: the codes' (their
    /// events tell no response apart) or the EEG's (no signal varies).
    case singular(LinearAlgebraError, of: Covariance)
    /// Whose covariance.
    public enum Covariance: Sendable { case codes, eeg }
    /// A setting the data cannot honour (a low-pass above the Nyquist frequency).
    case unusableSetting(String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .notEnoughData(let s): return "not enough calibration data: \(s)"
        case .shapeMismatch(let s): return "calibration data shapes disagree: \(s)"
        case .nonFinite(let trial): return "trial \(trial) holds NaN or infinite samples"
        case .singular(_, of: .codes):
            return "the codes' events cannot be told apart in the response window: check that the codes flash within the trials and that the latency (if given) leaves the window inside them"
        case .singular(_, of: .eeg):
            return "the EEG does not vary: its channels are flat, zero or copies of each other in the calibration trials"
        case .unusableSetting(let s): return s
        }
    }
}
