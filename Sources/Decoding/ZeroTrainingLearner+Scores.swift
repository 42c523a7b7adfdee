import Foundation

extension ZeroTrainingLearner {
    /// The probability that the best of `scores` is not what the user looked
    /// at, without any calibration: the best is compared with the spread of
    /// the others (their mean and standard deviation, estimated from only
    /// `K − 1` values, so a Student-t with `K − 2` degrees of freedom and
    /// the predictive factor `√(1 + 1/(K − 1))`), and the chance that any
    /// of the `K − 1` others would reach it is bounded by `K − 1` times one
    /// tail (Bonferroni). 1 with fewer than 3 scores, NaN or flat scores.
    public static func errorProbability(scores: [Double]) -> Double {
        let k = scores.count
        guard k >= 3, scores.allSatisfy(\.isFinite), let best = scores.indices.max(by: { scores[$0] < scores[$1] }) else { return 1 }
        let others = scores.enumerated().filter { $0.offset != best }.map(\.element)
        let mean = others.reduce(0, +) / Double(others.count)
        let variance = others.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(others.count - 1)
        guard variance > 0 else { return 1 }
        let t = (scores[best] - mean) / (variance * (1 + 1 / Double(others.count))).squareRoot()
        let tail = StudentT.upperTail(t, degreesOfFreedom: Double(k - 2))
        return min(1, max(0, Double(k - 1) * tail))
    }

    /// The correlation of each learned trial's spatially filtered EEG with
    /// each of its codes' predicted responses under `solution`.
    func correlations(of index: Int, with solution: ReconvolutionCCA.Solution) -> [Double] {
        let trial = trials[index]
        let n = trial.eeg.columns
        var filtered = [Double](repeating: 0, count: n)
        for c in 0..<channels {
            let w = solution.w[c]
            for s in 0..<n { filtered[s] += w * trial.eeg.elements[c * n + s] }
        }
        return trial.structures.map { m in
            let template = ReconvolutionCCA.template(onsets: m.onsets, length: n, kernels: solution.kernels, latency: firstLag)
            return Self.correlation(filtered, template)
        }
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(a.count)
        guard n > 1 else { return 0 }
        let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
        var ab = 0.0, aa = 0.0, bb = 0.0
        for i in a.indices {
            let x = a[i] - ma, y = b[i] - mb
            ab += x * y; aa += x * x; bb += y * y
        }
        return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
    }

    func structure(of code: [UInt8], samples n: Int) -> EventStructure {
        EventStructure(onsets: encoder.onsets(of: Array(code.prefix(n))), samples: n, firstLag: firstLag, lagCount: lagCount)
    }

    /// `sums / total − a·bᵀ / total²`: a covariance from raw sums.
    func centred(_ sums: Matrix, _ a: [Double], _ b: [Double], _ total: Double) -> Matrix {
        var out = sums.scaled(by: 1 / total)
        for i in 0..<out.rows {
            for j in 0..<out.columns { out.elements[i * out.columns + j] -= a[i] * b[j] / (total * total) }
        }
        return out
    }
}
