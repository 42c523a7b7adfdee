/// Offline results at one trial length, over all test folds.
public struct EvaluationRow: Codable, Sendable, Equatable {
    /// Trial length in seconds.
    public var seconds: Double
    /// Fraction of test trials whose best class is the target.
    public var accuracy: Double
    /// Wolpaw ITR in bits per minute, one selection per `seconds`.
    public var itr: Double
    /// Mean predicted error probability (Perr) over the test trials.
    public var predictedError: Double
    /// Actual error rate, 1 − accuracy.
    public var actualError: Double
    /// Test trials scored at this length.
    public var trials: Int

    /// A row from its values.
    public init(seconds: Double, accuracy: Double, itr: Double, predictedError: Double, actualError: Double, trials: Int) {
        (self.seconds, self.accuracy, self.itr, self.predictedError, self.actualError, self.trials) =
            (seconds, accuracy, itr, predictedError, actualError, trials)
    }
}
