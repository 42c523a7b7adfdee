import Foundation

/// The probability that a prediction is wrong (`Perr`), from a logistic model
/// of correctness fitted on cross-validated predictions: the features are
/// the margin between the two best scores and the best score, both times the
/// square root of the trial length so far (correlations shrink as 1/√n), and
/// 1/√t, which lets short, noisy stretches count for less without making long
/// stretches confident by their length alone.
public struct CertaintyModel: Sendable, Codable, Equatable {
    /// Logistic coefficients: intercept, margin·√t, best·√t, 1/√t.
    public let coefficients: [Double]

    /// A model from known coefficients.
    public init(coefficients: [Double]) {
        precondition(coefficients.count == 4, "intercept and three slopes")
        self.coefficients = coefficients
    }

    static func features(scores: [Double], seconds: Double) -> [Double] {
        // The two largest scores in one pass (0 for a missing one).
        var best = -Double.infinity, second = -Double.infinity
        for score in scores {
            if score > best { (best, second) = (score, best) } else if score > second { second = score }
        }
        if scores.isEmpty { best = 0 }
        if scores.count < 2 { second = 0 }
        let root = max(seconds, 0).squareRoot()
        return [1, (best - second) * root, best * root, 1 / max(root, 0.03)]
    }

    /// Fits by iteratively reweighted least squares with a small ridge, so
    /// that perfectly separable calibrations still give finite coefficients.
    /// The slopes keep the signs the features stand for: a larger margin or
    /// a higher best score never lowers the certainty, and a shorter stretch
    /// never raises it. A fit that would break one (a few calibration trials
    /// can) is fitted again with that slope held at 0, so that a prediction
    /// 0.1 s into a trial is never surer than the same scores later.
    ///
    /// `idle` holds updates of stretches where the user looked at none of
    /// the codes (every best class wrong). A calibration's attended trials
    /// are mostly right after a few tenths of a second, so they alone leave
    /// the model guessing how sure to be of a long stretch of noise, and the
    /// threshold that keeps idle presses rare lands where it guessed: from
    /// one calibration of a user to the next it moved by two decades of
    /// Perr. With `idle` examples the slopes are fitted on the attended and
    /// idle examples together (the idle ones weighing as much in all as the
    /// attended ones), then the intercept again on the attended examples
    /// alone, as a logistic model is moved to other class priors, so that
    /// Perr stays the error rate of a user who looks at a code. Idle
    /// examples beyond the attended ones' count are thinned evenly.
    public static func fit(_ examples: [CertaintyExample], idle: [CertaintyExample] = [], ridge: Double = 1e-2) throws -> CertaintyModel {
        // Features of every example one after another, four each.
        let x = examples.flatMap { features(scores: $0.scores, seconds: $0.seconds) }
        let y = examples.map { $0.correct ? 1.0 : 0.0 }
        let attendedWeights = [Double](repeating: 1, count: y.count)
        guard !idle.isEmpty, !examples.isEmpty else { return try signedFit(x, y, attendedWeights, ridge: ridge) }
        // Every k-th idle update, no more than the attended ones: surrogates of
        // 10 s at 10 ms updates run to a million, and the slopes need their spread, not each one.
        let every = max(1, Int((Double(idle.count) / Double(examples.count)).rounded(.up)))
        let kept = stride(from: 0, to: idle.count, by: every).map { idle[$0] }
        let idleWeight = Double(examples.count) / Double(kept.count)
        let weighting = try signedFit(x + kept.flatMap { features(scores: $0.scores, seconds: $0.seconds) },
                                      y + [Double](repeating: 0, count: kept.count),
                                      attendedWeights + [Double](repeating: idleWeight, count: kept.count), ridge: ridge).coefficients
        let offsets = y.indices.map { i in (0..<4).reduce(0) { $0 + weighting[$1] * x[4 * i + $1] } }
        let shift = intercept(offsets: offsets, y, ridge: ridge)
        return CertaintyModel(coefficients: [weighting[0] + shift] + weighting.dropFirst())
    }

    /// The intercept `a` of a logistic model `σ(a + offset)` fitted to the
    /// outcomes `y` (Newton's method, the same ridge).
    private static func intercept(offsets: [Double], _ y: [Double], ridge: Double) -> Double {
        var a = 0.0
        for _ in 0..<100 {
            var gradient = -ridge * a, curvature = ridge
            for (z, target) in zip(offsets, y) {
                let p = 1 / (1 + exp(-(a + z)))
                gradient += target - p
                curvature += max(p * (1 - p), 1e-9)
            }
            let step = gradient / curvature
            a += step
            if abs(step) < 1e-10 { break }
        }
        return a
    }

    /// The fit with every slope of the sign its feature stands for.
    private static func signedFit(_ x: [Double], _ y: [Double], _ weights: [Double], ridge: Double) throws -> CertaintyModel {
        var held: Set<Int> = []
        var theta = try fit(x, y, weights, ridge: ridge, holdingAtZero: held)
        while true {
            var wrongSign = held
            if theta[1] < 0 { wrongSign.insert(1) }          // margin · √t
            if theta[2] < 0 { wrongSign.insert(2) }          // best · √t
            if theta[3] > 0 { wrongSign.insert(3) }          // 1/√t
            if wrongSign == held { return CertaintyModel(coefficients: theta) }
            held = wrongSign
            theta = try fit(x, y, weights, ridge: ridge, holdingAtZero: held)
        }
    }

    /// The ridge-regularised logistic fit of examples (`x`: four features
    /// each, one example after another) weighted by `weights`, with the
    /// coefficients at the `holdingAtZero` indices kept at 0.
    private static func fit(_ x: [Double], _ y: [Double], _ weights: [Double], ridge: Double,
                            holdingAtZero held: Set<Int>) throws -> [Double] {
        let size = 4
        let free = (0..<size).filter { !held.contains($0) }
        var theta = [Double](repeating: 0, count: size)
        for _ in 0..<50 {
            var hessian = (0..<(size * size)).map { $0 % (size + 1) == 0 ? ridge : 0 }     // ridge · I
            var gradient = theta.map { -ridge * $0 }
            for i in y.indices {
                let f = 4 * i
                let z = theta[0] * x[f] + theta[1] * x[f + 1] + theta[2] * x[f + 2] + theta[3] * x[f + 3]
                let p = 1 / (1 + exp(-z))
                let weight = weights[i] * max(p * (1 - p), 1e-9)
                let residual = weights[i] * (y[i] - p)
                for a in free {
                    gradient[a] += residual * x[f + a]
                    for b in free { hessian[a * size + b] += weight * x[f + a] * x[f + b] }
                }
            }
            let step = try CholeskyFactor(Matrix(rows: size, columns: size, elements: hessian)).solve(Matrix(rows: 1, columns: size, elements: gradient)).elements
            theta = zip(theta, step).map { $0 + $1 }
            if step.map(abs).max()! < 1e-8 { break }
        }
        return theta
    }

    /// The probability that the best-scoring class is not the target.
    public func errorProbability(scores: [Double], seconds: Double) -> Double {
        let z = zip(coefficients, Self.features(scores: scores, seconds: seconds)).reduce(0) { $0 + $1.0 * $1.1 }
        return 1 / (1 + exp(z))
    }

    /// The lowest certainty (1 − Perr) at which pressing as soon as it is
    /// reached keeps presses honest and rare when nobody looks. Along each
    /// `attended` trial (cross-validated, in time order) the press is the
    /// first update at or above the threshold; the threshold qualifies when
    ///
    /// - the model's own predicted error of those presses (their mean Perr)
    ///   is at most `targetErrorRate`,
    /// - the presses that were actually wrong are at most `targetErrorRate`
    ///   of the presses (with 10 presses and 5 %, none), and
    /// - at most `idlePressRate` of the `idle` trials (trajectories with no
    ///   target among the scored codes) reach it.
    ///
    /// Candidates run from 0.5 to 1 − 10⁻⁶ in steps of 1/20 decade of Perr;
    /// 1 − 10⁻⁶ when none qualifies.
    public static func recommendedThreshold(
        attended: [[(certainty: Double, correct: Bool)]], idle: [[Double]] = [],
        targetErrorRate: Double, idlePressRate: Double = 0.01
    ) -> Double {
        // The highest certainty each idle trial reaches: it presses at every threshold up to that.
        let idlePeaks = idle.map { $0.max() ?? 0 }
        for step in 0...114 {
            let threshold = 1 - 0.5 * pow(10, -Double(step) / 20)
            var presses = 0, wrong = 0
            var predicted = 0.0
            for trial in attended {
                if let press = trial.first(where: { $0.certainty >= threshold }) {
                    presses += 1
                    predicted += 1 - press.certainty
                    if !press.correct { wrong += 1 }
                }
            }
            guard presses > 0, predicted <= targetErrorRate * Double(presses),
                  Double(wrong) <= targetErrorRate * Double(presses) else { continue }
            let idlePresses = idlePeaks.filter { $0 >= threshold }.count
            if idle.isEmpty || Double(idlePresses) <= idlePressRate * Double(idle.count) { return threshold }
        }
        return 1 - 1e-6
    }
}
