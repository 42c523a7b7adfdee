/// One candidate of the settings grid evaluated as a fixed setting on the
/// same folds as the selection (``OfflineEvaluation/everyCandidate(_:grid:)``):
/// what that one fixed choice would have given this dataset.
public struct CandidateEvaluation: Codable, Sendable, Equatable {
    /// The candidate, fixed in every fold.
    public let candidate: FitCandidate
    /// Its decoding curve, one row for each reported length.
    public let rows: [Row]

    /// The candidate's accuracy at one trial length.
    public struct Row: Codable, Sendable, Equatable {
        /// Trial length in seconds.
        public let seconds: Double
        /// Fraction of test trials whose best class is the target.
        public let accuracy: Double
        /// Wolpaw ITR in bits per minute, one selection per `seconds`.
        public let itr: Double
        /// Test trials scored at this length.
        public let trials: Int
    }
}
