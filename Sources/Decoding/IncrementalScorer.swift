/// Scores one trial as its samples arrive: the correlation between the
/// spatially filtered EEG and each class's template over the samples so far,
/// both whitened by the model's ``PredictionErrorFilter``.
/// Only running sums are kept, so each update costs time proportional to the
/// new samples (times channels plus classes), never to the trial's length.
/// Past the end of a template, the template wraps (codes repeat).
///
/// ```swift
/// var scorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: model.templates(for: codes),
///                                whitening: model.whitening)     // or model.scorer(for: codes)
/// scorer.append(chunk)          // channels × 25 new, preprocessed samples
/// let best = scorer.scores().enumerated().max { $0.element < $1.element }!.offset
/// ```
public struct IncrementalScorer: Sendable {
    /// Samples seen so far.
    public var sampleCount: Int { running.sampleCount }
    private let templates: [[Double]]
    private var running: TrialScorer

    /// A scorer for a new trial. The templates are whitened here, from zeros
    /// before their first sample (the stimulus was off before the trial).
    public init(spatialFilter: [Double], templates: [[Double]], whitening: PredictionErrorFilter = .identity) {
        precondition(!templates.isEmpty && templates.allSatisfy { !$0.isEmpty }, "every class needs a template")
        self.templates = templates.map { whitening.apply($0) }
        running = TrialScorer(spatialFilter: spatialFilter, objects: templates.count, whitening: whitening)
    }

    /// Adds the next samples (channels × m, preprocessed).
    public mutating func append(_ chunk: [[Double]]) {
        running.append(chunk, templates: templates, from: sampleCount, scoringEvery: 0) { _ in }
    }

    /// Adds the next samples (channels × m, preprocessed) and returns the
    /// scores after every `step` of them and after the last: what calling
    /// ``append(_:)`` with `step` samples at a time and ``scores()`` after
    /// each would give, in one pass.
    public mutating func append(_ chunk: [[Double]], scoringEvery step: Int) -> [[Double]] {
        precondition(step > 0, "a step of at least one sample")
        var out: [[Double]] = []
        out.reserveCapacity(((chunk.first?.count ?? 0) + step - 1) / step)
        running.append(chunk, templates: templates, from: sampleCount, scoringEvery: step) { out.append($0) }
        return out
    }

    /// Pearson correlation with each class's template so far (0 while undefined).
    public func scores() -> [Double] { running.scores() }
}
