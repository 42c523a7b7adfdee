/// One cross-validated prediction for calibrating a ``CertaintyModel``: the
/// scores at some length, and whether the best class was the target.
public struct CertaintyExample: Sendable {
    /// One score per class.
    public var scores: [Double]
    /// Seconds of the trial scored.
    public var seconds: Double
    /// Whether the best-scoring class was the target.
    public var correct: Bool

    /// An example from its parts.
    public init(scores: [Double], seconds: Double, correct: Bool) {
        self.scores = scores
        self.seconds = seconds
        self.correct = correct
    }
}
