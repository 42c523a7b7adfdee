import Decoding

extension DecoderEvaluateCommand {
    /// The `--zero-train` report: each trial as the learner met it, then the
    /// labels it learned and how its presses compare with the supervised decoder's.
    static func text(_ z: ZeroTrainingOutcome, supervised r: EvaluationReport) -> String {
        // Each trial is also classified at 4 s, or over the whole trial when it is shorter (the last row's length).
        let at = f(min(4, r.rows.map(\.seconds).max() ?? 4), 1).replacingOccurrences(of: ".0", with: "")
        var out = "zero training (labels hidden, trials in recorded order):\n"
        out += "trial  target  selected  seconds  " + "at_\(at)s".padding(toLength: 8, withPad: " ", startingAt: 0) + "decoder\n"
        for t in z.trials {
            out += row([(String(t.trial), 5), (String(t.target), 6), (t.selected.map(String.init) ?? "none", 8),
                        (t.seconds.map { f($0, 1) } ?? "-", 7), (t.classified.map(String.init) ?? "-", 6)],
                       t.phase == .zeroTraining ? "unsupervised" : "supervised")
        }
        let handOver = z.learnedLabels.count
        out += "learned labels right: \(f(z.learnedLabelAccuracy * 100, 0)) % of the \(handOver) unsupervised trials "
        out += "(\(z.revisions) revised on the way; learning took \(f(z.learnSeconds, 2)) s)\n"
        for problem in z.fitProblems { out += "\(problem)\n" }
        // The unsupervised stretch (--zero-train-trials, 10 by default) against the trials after the hand-over.
        out += "wrong presses in trials 1-\(handOver): \(z.wrongPresses(to: handOver)); "
        guard z.trials.count > handOver else { return out + "no trial after the hand-over (trial \(handOver)) to judge it by\n" }
        out += "from trial \(handOver + 1): \(f(z.accuracy(from: handOver) * 100, 1)) % pressed right (supervised \(r.folds)-fold: "
        out += "\(f(r.pressedFraction * r.pressAccuracy * 100, 1)) %), "
        out += "\(f(z.classificationAccuracy(from: handOver) * 100, 1)) % right at \(at) s"
        if let four = r.rows.first(where: { $0.seconds == 4 }) ?? r.rows.last {
            out += " (supervised: \(f(four.accuracy * 100, 1)) % at \(length(four.seconds)) s)"
        }
        return out + "\n"
    }
}
