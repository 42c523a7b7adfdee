/// The EEG-side sums a reconvolution fit needs, computed once per
/// calibration: the channel covariance, the channel means, and per class the
/// sum of its trials (all trials of a class share one structure matrix, so
/// `Σ Xᵢ Mᵀ = (Σ Xᵢ) Mᵀ`).
struct CovarianceSums: Sendable {
    let channels: Int
    let total: Int
    let mean: [Double]
    let covariance: Matrix
    let classCounts: [(Int, Int)]
    let classSums: [Int: Matrix]

    init(trials: [[[Double]]], labels: [Int]) {
        channels = trials[0].count
        let n = trials[0][0].count
        total = trials.count * n
        var all = Matrix(rows: channels, columns: total)
        var sums: [Int: Matrix] = [:]
        var counts: [Int: Int] = [:]
        for (i, trial) in trials.enumerated() {
            var classSum = sums.removeValue(forKey: labels[i]) ?? Matrix(rows: channels, columns: n)
            var allSpan = all.elements.mutableSpan
            var sumSpan = classSum.elements.mutableSpan
            for c in 0..<channels {
                let channel = trial[c]
                let samples = channel.span
                var row = allSpan.extracting((c * total + i * n)..<(c * total + i * n + n))
                var sum = sumSpan.extracting((c * n)..<(c * n + n))
                for s in 0..<samples.count {
                    row[s] = samples[s]
                    sum[s] += samples[s]
                }
            }
            sums[labels[i]] = classSum
            counts[labels[i], default: 0] += 1
        }
        let (ch, tot) = (channels, total)
        let mean = (0..<ch).map { c in all.elements[(c * tot)..<((c + 1) * tot)].reduce(0, +) / Double(tot) }
        var cov = all.gram().scaled(by: 1 / Double(total))
        for a in 0..<channels { for b in 0..<channels { cov[a, b] -= mean[a] * mean[b] } }
        self.mean = mean
        covariance = cov
        classSums = sums
        classCounts = counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
