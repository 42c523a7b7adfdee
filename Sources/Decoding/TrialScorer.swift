/// Scores a live trial whose stimulus is learnt as it is shown: the Pearson
/// correlation between the spatially filtered, whitened EEG and each
/// object's whitened template, from running sums. Each update brings the
/// templates' values for its own samples, already whitened with the same
/// ``PredictionErrorFilter`` (the caller knows the stimulus before them), so
/// work per update is proportional to the new samples
/// (`IncrementalScorer` feeds it from templates known in advance).
///
/// ```swift
/// var scorer = TrialScorer(spatialFilter: model.spatialFilter, objects: 9, whitening: model.whitening)
/// scorer.append(chunk, templates: whitenedTemplatesForChunk)   // channels × m, objects × m
/// let scores = scorer.scores()
/// ```
public struct TrialScorer: Sendable {
    /// Samples seen so far.
    public private(set) var sampleCount = 0
    private let spatialFilter: [Double]
    private let whitening: PredictionErrorFilter
    private var whiteningState: [Double]
    private var sumX = 0.0, sumXX = 0.0
    private var sumT: [Double], sumTT: [Double], sumXT: [Double]

    /// A scorer for a trial over `objects` objects; the filtered EEG is
    /// whitened with `whitening` from zeros at the trial's first sample.
    public init(spatialFilter: [Double], objects: Int, whitening: PredictionErrorFilter = .identity) {
        self.spatialFilter = spatialFilter
        self.whitening = whitening
        whiteningState = whitening.makeState()
        sumT = [Double](repeating: 0, count: objects)
        sumTT = sumT
        sumXT = sumT
    }

    /// Adds `chunk` (channels × m, preprocessed) with each object's whitened template over the same m samples.
    public mutating func append(_ chunk: [[Double]], templates: [[Double]]) {
        let m = chunk.first?.count ?? 0
        precondition(templates.allSatisfy { $0.count >= m }, "each template covers the chunk's samples")
        append(chunk, templates: templates, from: 0, scoringEvery: 0) { _ in }
    }

    /// Adds `chunk` (channels × m, preprocessed) against whole whitened
    /// templates read from their sample `offset` on (wrapping round each),
    /// and hands `body` the scores after every `step` samples of the chunk
    /// and after its last (never, for a `step` of 0). The sums are the same,
    /// added in the same order, as appending the chunk `step` samples at a
    /// time with the templates' slices, so the scores are too; it saves a
    /// slice per template and step, which was most of the cost of scoring
    /// ten seconds in 100 ms steps, and finds each template's position once
    /// per run of samples in which none wraps.
    mutating func append(_ chunk: [[Double]], templates: [[Double]], from offset: Int, scoringEvery step: Int,
                         _ body: ([Double]) -> Void) {
        precondition(chunk.count == spatialFilter.count && templates.count == sumT.count, "one row per channel and per object")
        let m = chunk.first?.count ?? 0
        var filtered = [Double](repeating: 0, count: m)
        for c in 0..<spatialFilter.count {
            let w = spatialFilter[c], row = chunk[c]
            for i in 0..<m { filtered[i] += w * row[i] }
        }
        let whitened = whitening.apply(filtered, state: &whiteningState)
        let start = sampleCount
        var nextScore = step > 0 ? min(step, m) : m
        var i = 0
        while i < m {
            // A run of samples up to the next score in which no template wraps: each
            // template's position is found once per run, not once per sample.
            let positions = templates.map { (offset + i) % $0.count }
            var end = nextScore
            for (k, template) in templates.enumerated() { end = min(end, i + template.count - positions[k]) }
            for j in i..<end {
                let x = whitened[j]
                sumX += x
                sumXX += x * x
            }
            // Template by template, each running sum in a local across the run: the same
            // additions in the same order as sample by sample, without a store per sample.
            for k in 0..<templates.count {
                let template = templates[k], shift = positions[k] - i
                var t1 = sumT[k], t2 = sumTT[k], xt = sumXT[k]
                for j in i..<end {
                    let t = template[shift + j]
                    t1 += t
                    t2 += t * t
                    xt += whitened[j] * t
                }
                sumT[k] = t1
                sumTT[k] = t2
                sumXT[k] = xt
            }
            i = end
            if i == nextScore {
                if step > 0 {
                    sampleCount = start + i
                    body(scores())
                }
                nextScore = step > 0 ? min(nextScore + step, m) : m
            }
        }
        sampleCount = start + m
    }

    /// The correlation with each object's template (0 while undefined; never NaN).
    public func scores() -> [Double] {
        let n = Double(sampleCount)
        let varX = n * sumXX - sumX * sumX
        return (0..<sumT.count).map { k in
            let varT = n * sumTT[k] - sumT[k] * sumT[k]
            let denominator = (varX * varT).squareRoot()
            guard denominator > 0, denominator.isFinite else { return 0 }
            let r = (n * sumXT[k] - sumX * sumT[k]) / denominator
            return r.isFinite ? r : 0
        }
    }
}
