/// One cross-validated prediction for calibrating a ``CertaintyModel``: the
/// scores at some length, and whether the best class was the target.
///
/// ```swift
/// let example = CertaintyExample(scores: scorer.scores(), seconds: 1.0, correct: true)
/// let model = try CertaintyModel.fit([example] + others)
/// ```
public struct CertaintyExample: Sendable {
    /// One score per class.
    public var scores: [Double]
    /// Seconds of the trial scored.
    public var seconds: Double
    /// Whether the best-scoring class was the target.
    public var correct: Bool

    /// An example from its parts.
    ///
    /// ```swift
    /// let wrong = CertaintyExample(scores: [0.1, 0.2], seconds: 0.5, correct: false)
    /// ```
    public init(scores: [Double], seconds: Double, correct: Bool) {
        self.scores = scores
        self.seconds = seconds
        self.correct = correct
    }
}
