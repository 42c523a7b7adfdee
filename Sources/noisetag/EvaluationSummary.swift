import Decoding
import Foundation

/// The table that ends `noisetag decoder evaluate DIR DIR …`: each
/// dataset's accuracy at each length beside its size, then, at each length,
/// the mean over the datasets that reach it and the accuracy over their
/// trials pooled.
struct EvaluationSummary {
    /// At one length: how many datasets reach it, their mean accuracy, and
    /// the fraction of all their trials decoded right.
    struct Length: Encodable {
        var seconds: Double
        var datasets: Int
        var meanAccuracy: Double
        var pooledAccuracy: Double
    }

    let evaluated: [(folder: String, report: EvaluationReport)]
    let lengths: [Length]
    /// Datasets given that could not be evaluated (each said so on stderr).
    var failed = 0

    init(_ evaluated: [(folder: String, report: EvaluationReport)]) {
        self.evaluated = evaluated
        let seconds = Set(evaluated.flatMap { $0.report.rows.map(\.seconds) }).sorted()
        lengths = seconds.map { s in
            let rows = evaluated.compactMap { $0.report.rows.first { $0.seconds == s } }
            let trials = rows.reduce(0) { $0 + $1.trials }
            return Length(seconds: s, datasets: rows.count,
                          meanAccuracy: rows.reduce(0) { $0 + $1.accuracy } / Double(max(rows.count, 1)),
                          pooledAccuracy: rows.reduce(0) { $0 + $1.accuracy * Double($1.trials) } / Double(max(trials, 1)))
        }
    }

    /// The per-length figures as JSON values (through the encoder, which keeps a Double's fraction).
    var jsonObject: Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(lengths)).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? []
    }

    /// The table as `decoder evaluate` prints it. A length that only some
    /// datasets reach (a trial shorter than it) has its mean and pooled
    /// figures over those, and a row says how many they are.
    var text: String {
        func f(_ v: Double) -> String { String(format: "%.3f", v) }
        let pooled = "pooled over their trials", mean = "mean of the datasets", counted = "datasets counted"
        let partial = lengths.contains { $0.datasets < evaluated.count }
        let width = ([pooled, mean] + evaluated.map(\.folder)).map(\.count).max() ?? 0
        let header = lengths.map { String(format: "%g s", $0.seconds) }
        let rows = evaluated.map { folder, r in
            (folder, "\(r.trials) × \(r.classes), \(r.channels)", lengths.map { l in r.rows.first { $0.seconds == l.seconds }.map { f($0.accuracy) } ?? "-" })
        }
        // Each column as wide as its widest cell, and a space.
        let columns = header.indices.map { k in ([header[k], "0.000"] + rows.map { $0.2[k] }).map(\.count).max()! + 2 }
        func line(_ first: String, _ size: String, _ cells: [String]) -> String {
            let row = first.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + size.padding(toLength: 28, withPad: " ", startingAt: 0)
                + zip(cells, columns).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined()
            return String(row.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        var out = "\(evaluated.count) datasets" + (failed > 0 ? " (\(failed) more could not be evaluated: see the lines above)" : "") + ", accuracy at " + lengths.map { String(format: "%g", $0.seconds) }.joined(separator: " / ") + " s:\n"
        out += line("dataset", "trials × classes, channels", header)
        for (folder, size, cells) in rows { out += line(folder, size, cells) }
        out += line(mean, "", lengths.map { f($0.meanAccuracy) })
        out += line(pooled, "", lengths.map { f($0.pooledAccuracy) })
        if partial { out += line(counted, "(trials long enough)", lengths.map { "\($0.datasets)" }) }
        return out
    }
}
