/// One candidate of the settings grid evaluated as a fixed setting on the
/// same folds as the selection (``OfflineEvaluation/everyCandidate(_:grid:)``):
/// what that one fixed choice would have given this dataset.
public struct CandidateEvaluation: Codable, Sendable, Equatable {
    /// The candidate, fixed in every fold.
    public let candidate: FitCandidate
    /// Its decoding curve: accuracy (and the rest) at each reported length.
    public let rows: [EvaluationRow]
}
