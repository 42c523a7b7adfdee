import ArgumentParser
import Foundation

/// What a `noisetag bench` command prints: a table, or with `--json` one
/// JSON object (sorted keys) of the same figures.
protocol BenchReport: Encodable {
    /// The figures as an aligned text table.
    func table() -> String
}

extension BenchReport {
    /// The report as one line of JSON with sorted keys.
    func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// `text` right-aligned in a column `width` characters wide.
    static func cell(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// The control counts of a `--controls` list ("36,255"), each 1...255;
    /// a ValidationError naming the option and an example otherwise.
    static func controlCounts(_ list: String, example: String) throws -> [Int] {
        let parts = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let counts = parts.compactMap { Int($0) }
        guard !parts.isEmpty, counts.count == parts.count, counts.allSatisfy({ (1...255).contains($0) }) else {
            throw ValidationError("--controls: expected numbers in 1...255 separated by commas, e.g. \(example); got \"\(list)\"")
        }
        return counts
    }
}
