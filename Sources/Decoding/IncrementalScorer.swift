/// Scores one trial as its samples arrive: the correlation between the
/// spatially filtered EEG and each class's template over the samples so far.
/// Only running sums are kept, so each update costs time proportional to the
/// new samples (times channels plus classes), never to the trial's length.
/// Past the end of a template, the template wraps (codes repeat).
///
/// ```swift
/// var scorer = IncrementalScorer(spatialFilter: model.spatialFilter, templates: model.templates(for: codes))
/// scorer.append(chunk)          // channels × 25 new, preprocessed samples
/// let best = scorer.scores().enumerated().max { $0.element < $1.element }!.offset
/// ```
public struct IncrementalScorer: Sendable {
    /// Samples seen so far.
    public private(set) var sampleCount = 0
    private let spatialFilter: [Double]
    private let templates: [[Double]]
    private var sumX = 0.0, sumXX = 0.0
    private var sumT: [Double], sumTT: [Double], sumXT: [Double]

    /// A scorer for a new trial.
    ///
    /// ```swift
    /// var scorer = IncrementalScorer(spatialFilter: w, templates: t)
    /// ```
    public init(spatialFilter: [Double], templates: [[Double]]) {
        precondition(!templates.isEmpty && templates.allSatisfy { !$0.isEmpty }, "every class needs a template")
        self.spatialFilter = spatialFilter
        self.templates = templates
        sumT = [Double](repeating: 0, count: templates.count)
        sumTT = sumT
        sumXT = sumT
    }

    /// Adds the next samples (channels × m, preprocessed).
    ///
    /// ```swift
    /// scorer.append(filter.process(packetColumns))
    /// ```
    public mutating func append(_ chunk: [[Double]]) {
        precondition(chunk.count == spatialFilter.count, "one row per channel")
        let m = chunk.first?.count ?? 0
        for i in 0..<m {
            var x = 0.0
            for c in 0..<spatialFilter.count { x += spatialFilter[c] * chunk[c][i] }
            sumX += x
            sumXX += x * x
            let s = sampleCount + i
            for k in 0..<templates.count {
                let t = templates[k][s % templates[k].count]
                sumT[k] += t
                sumTT[k] += t * t
                sumXT[k] += x * t
            }
        }
        sampleCount += m
    }

    /// Pearson correlation with each class's template so far (0 while undefined).
    ///
    /// ```swift
    /// let scores = scorer.scores()   // one per class, −1…1
    /// ```
    public func scores() -> [Double] {
        let n = Double(sampleCount)
        let varX = n * sumXX - sumX * sumX
        return (0..<templates.count).map { k in
            let varT = n * sumTT[k] - sumT[k] * sumT[k]
            let denominator = (varX * varT).squareRoot()
            guard denominator > 0, denominator.isFinite else { return 0 }
            return (n * sumXT[k] - sumX * sumT[k]) / denominator
        }
    }
}
