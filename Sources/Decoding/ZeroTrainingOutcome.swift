import JSONSupport

/// What a ``ZeroTrainingEvaluation`` found, trial by trial.
public struct ZeroTrainingOutcome: Sendable, Codable, Equatable {
    /// Who decoded a trial.
    public enum Phase: String, Sendable, Codable {
        /// The unsupervised learner.
        case zeroTraining
        /// The supervised decoder fitted on the learned labels.
        case supervised
    }

    /// One trial; `selected`, `seconds` and `classified` are written as
    /// null when absent.
    public struct Trial: Sendable, Codable, Equatable {
        /// Number in recorded order, from 1.
        public var trial: Int
        /// The class the user looked at.
        public var target: Int
        /// The class pressed, nil when the trial ended without a press.
        @NullWhenAbsent public var selected: Int?
        /// Seconds into the trial at the press.
        @NullWhenAbsent public var seconds: Double?
        /// Who decoded it.
        public var phase: Phase
        /// The class ranked best at the evaluation's classification length
        /// (4 s, or the whole trial when shorter), pressed or not.
        @NullWhenAbsent public var classified: Int?
    }

    /// Every trial, in recorded order.
    public var trials: [Trial]
    /// The labels the learner ended with for the unsupervised trials.
    public var learnedLabels: [Int]
    /// Label changes of earlier trials, over the unsupervised stretch.
    public var revisions: Int
    /// Supervised fits that found too little to fit (at the hand-over, which
    /// then waits, or a refit, which keeps the model before it), each with
    /// the trial after which it was tried.
    public var fitProblems: [String]
    /// Seconds spent learning finished trials (adding and revising).
    public var learnSeconds: Double

    /// Correct presses among the trials at positions `first..<last` (0-based:
    /// `from: 10` is trial 11 onwards; a trial without a press counts as
    /// not correct).
    public func accuracy(from first: Int = 0, to last: Int? = nil) -> Double {
        let range = trials.filter { $0.trial > first && $0.trial <= (last ?? Int.max) }
        guard !range.isEmpty else { return 0 }
        return Double(range.filter { $0.selected == $0.target }.count) / Double(range.count)
    }

    /// Trials at positions `first..<last` (0-based) classified right at the
    /// classification length, pressed or not.
    public func classificationAccuracy(from first: Int = 0, to last: Int? = nil) -> Double {
        let range = trials.filter { $0.trial > first && $0.trial <= (last ?? Int.max) }
        guard !range.isEmpty else { return 0 }
        return Double(range.filter { $0.classified == $0.target }.count) / Double(range.count)
    }

    /// Presses of the wrong class among the trials at positions `first..<last` (0-based).
    public func wrongPresses(from first: Int = 0, to last: Int? = nil) -> Int {
        trials.filter { $0.trial > first && $0.trial <= (last ?? Int.max) && $0.selected != nil && $0.selected != $0.target }.count
    }

    /// Learned labels that match the targets, over the unsupervised trials.
    public var learnedLabelAccuracy: Double {
        guard !learnedLabels.isEmpty else { return 0 }
        return Double(zip(learnedLabels, trials).filter { $0 == $1.target }.count) / Double(learnedLabels.count)
    }
}
