import Foundation

/// The probability that a prediction is wrong (`Perr`), from a logistic model
/// of correctness fitted on cross-validated predictions: the features are
/// the margin between the two best scores and the best score, both times the
/// square root of the trial length so far (correlations shrink as 1/√n), and
/// the logarithm of the length (so short and long trials are each calibrated).
///
/// ```swift
/// let certainty = try CertaintyModel.fit(examples)
/// let perr = certainty.errorProbability(scores: scorer.scores(), seconds: 1.2)
/// ```
public struct CertaintyModel: Sendable, Codable, Equatable {
    /// Logistic coefficients: intercept, margin·√t, best·√t, ln t.
    public let coefficients: [Double]

    /// One cross-validated prediction: the scores at some length, and whether
    /// the best class was the target.
    ///
    /// ```swift
    /// let example = CertaintyModel.Example(scores: scorer.scores(), seconds: 1.0, correct: true)
    /// ```
    public struct Example: Sendable {
        public var scores: [Double]
        public var seconds: Double
        public var correct: Bool
        public init(scores: [Double], seconds: Double, correct: Bool) {
            self.scores = scores
            self.seconds = seconds
            self.correct = correct
        }
    }

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
        return [1, (best - second) * root, best * root, log(max(seconds, 1e-3))]
    }

    /// Fits by iteratively reweighted least squares with a small ridge, so
    /// that perfectly separable calibrations still give finite coefficients.
    ///
    /// ```swift
    /// let model = try CertaintyModel.fit(crossValidatedExamples)
    /// ```
    public static func fit(_ examples: [Example], ridge: Double = 1e-2) throws -> CertaintyModel {
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
    /// reached gives at most `targetErrorRate` wrong presses over these
    /// trials, each a sequence of (certainty, correct) in time order; 0.999
    /// when none does.
    ///
    /// ```swift
    /// let threshold = CertaintyModel.recommendedThreshold(trajectories, targetErrorRate: 0.05)
    /// ```
    public static func recommendedThreshold(_ trajectories: [[(certainty: Double, correct: Bool)]], targetErrorRate: Double) -> Double {
        for step in 0...498 {
            let threshold = 0.5 + Double(step) * 0.001
            var presses = 0, wrong = 0
            for trial in trajectories {
                if let press = trial.first(where: { $0.certainty >= threshold }) {
                    presses += 1
                    if !press.correct { wrong += 1 }
                }
            }
            if presses > 0, Double(wrong) <= targetErrorRate * Double(presses) { return threshold }
        }
        return 0.999
    }
}
