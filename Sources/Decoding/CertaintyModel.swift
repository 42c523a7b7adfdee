import Foundation

/// The probability that a prediction is wrong (`Perr`), from a logistic model
/// of correctness fitted on cross-validated predictions: the features are
/// the margin between the two best scores and the best score, both times the
/// square root of the trial length so far (correlations shrink as 1/√n), and
/// 1/√t, which lets short, noisy stretches count for less without making long
/// stretches confident by their length alone.
///
/// ```swift
/// let certainty = try CertaintyModel.fit(examples)
/// let perr = certainty.errorProbability(scores: scorer.scores(), seconds: 1.2)
/// ```
public struct CertaintyModel: Sendable, Codable, Equatable {
    /// Logistic coefficients: intercept, margin·√t, best·√t, 1/√t.
    public let coefficients: [Double]

    /// A model from known coefficients.
    ///
    /// ```swift
    /// let model = CertaintyModel(coefficients: [-1, 8, 2, 0.5])
    /// ```
    public init(coefficients: [Double]) {
        precondition(coefficients.count == 4, "intercept and three slopes")
        self.coefficients = coefficients
    }

    static func features(scores: [Double], seconds: Double) -> [Double] {
        let sorted = scores.sorted(by: >)
        let best = sorted.first ?? 0
        let second = sorted.count > 1 ? sorted[1] : 0
        let root = max(seconds, 0).squareRoot()
        return [1, (best - second) * root, best * root, 1 / max(root, 0.03)]
    }

    /// Fits by iteratively reweighted least squares with a small ridge, so
    /// that perfectly separable calibrations still give finite coefficients.
    ///
    /// ```swift
    /// let model = try CertaintyModel.fit(crossValidatedExamples)
    /// ```
    public static func fit(_ examples: [CertaintyExample], ridge: Double = 1e-2) throws -> CertaintyModel {
        let x = examples.map { features(scores: $0.scores, seconds: $0.seconds) }
        let y = examples.map { $0.correct ? 1.0 : 0.0 }
        let size = 4
        var theta = [Double](repeating: 0, count: size)
        for _ in 0..<50 {
            var hessian = Matrix.identity(size).scaled(by: ridge)
            var gradient = theta.map { -ridge * $0 }
            for (f, target) in zip(x, y) {
                let p = 1 / (1 + exp(-zip(theta, f).reduce(0) { $0 + $1.0 * $1.1 }))
                let weight = max(p * (1 - p), 1e-9)
                for a in 0..<size {
                    gradient[a] += (target - p) * f[a]
                    for b in 0..<size { hessian[a, b] += weight * f[a] * f[b] }
                }
            }
            let step = try CholeskyFactor(hessian).solve(Matrix(rows: 1, columns: size, elements: gradient)).elements
            theta = zip(theta, step).map { $0 + $1 }
            if step.map(abs).max()! < 1e-8 { break }
        }
        return CertaintyModel(coefficients: theta)
    }

    /// The probability that the best-scoring class is not the target.
    ///
    /// ```swift
    /// let perr = model.errorProbability(scores: [0.31, 0.05, 0.02], seconds: 2)
    /// ```
    public func errorProbability(scores: [Double], seconds: Double) -> Double {
        let z = zip(coefficients, Self.features(scores: scores, seconds: seconds)).reduce(0) { $0 + $1.0 * $1.1 }
        return 1 / (1 + exp(z))
    }

    /// The lowest certainty (1 − Perr) at which pressing as soon as it is
    /// reached keeps wrong presses over `attended` trials at most
    /// `targetErrorRate` (counted as (wrong + 1) / (presses + 2), so a small
    /// calibration does not pick an optimistic threshold), and presses in at
    /// most `idlePressRate` of the `idle` trials (trajectories with no target
    /// among the scored codes). Each trial is a sequence in time order.
    /// Candidates run from 0.5 to 1 − 10⁻⁶ in steps of 1/20 decade of Perr;
    /// 1 − 10⁻⁶ when none qualifies.
    ///
    /// ```swift
    /// let threshold = CertaintyModel.recommendedThreshold(attended: trajectories, idle: foils, targetErrorRate: 0.05)
    /// ```
    public static func recommendedThreshold(
        attended: [[(certainty: Double, correct: Bool)]], idle: [[Double]] = [],
        targetErrorRate: Double, idlePressRate: Double = 0.01
    ) -> Double {
        // Candidates from certainty 0.5 up to 1 − 10⁻⁶, evenly on a log scale of Perr.
        for step in 0...114 {
            let threshold = 1 - 0.5 * pow(10, -Double(step) / 20)
            var presses = 0, wrong = 0
            for trial in attended {
                if let press = trial.first(where: { $0.certainty >= threshold }) {
                    presses += 1
                    if !press.correct { wrong += 1 }
                }
            }
            let idlePresses = idle.filter { $0.contains { $0 >= threshold } }.count
            guard presses > 0, Double(wrong + 1) <= targetErrorRate * Double(presses + 2) else { continue }
            if idle.isEmpty || Double(idlePresses) <= idlePressRate * Double(idle.count) { return threshold }
        }
        return 1 - 1e-6
    }
}
