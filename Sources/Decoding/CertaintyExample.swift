/// One cross-validated prediction for calibrating a ``CertaintyModel``: the
/// scores at some length, and whether the best class was the target.
public struct CertaintyExample: Sendable {
    /// One score per class.
    public var scores: [Double]
    /// Seconds of the trial scored.
    public var seconds: Double
    /// Whether the best-scoring class was the target.
    public var correct: Bool
}
