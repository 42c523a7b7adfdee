import ArgumentParser
import Foundation
import JSONSupport
import NoiseTagging

/// `noisetag codes inspect FILE [--json]`: size, balance and correlations of a codebook.
struct CodesInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the number of codes, their length, balance and worst correlations.",
        discussion: """
            Correlations are cyclic and normalised, on bipolar values (state 0 -> -1, \
            any other state -> +1); "worst" is the highest value: over lags 1..L-1 of \
            each code with itself, and over all lags of every pair of different codes.
            """
    )

    @Argument(help: "A codebook in the MindAffect text format.")
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let codebook = try CodebookFile(contentsOfFile: file).codebook
        let stats = CodebookStatistics(codebook)
        if json {
            print(try jsonText(stats))
        } else {
            print(report(stats))
        }
    }

    private func report(_ stats: CodebookStatistics) -> String {
        func figure(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "n/a" }
        return """
            file:                           \(file)
            codes:                          \(stats.count)
            length:                         \(stats.length)
            balance (min / mean / max):     \(figure(stats.balance.min)) / \(figure(stats.balance.mean)) / \(figure(stats.balance.max))
            worst off-peak autocorrelation: \(figure(stats.worstOffPeakAutocorrelation))
            worst cross-correlation:        \(figure(stats.worstCrossCorrelation))
            """
    }

    private func jsonText(_ stats: CodebookStatistics) throws -> String {
        struct Report: Encodable {
            let file: String
            let count: Int
            let length: Int
            let balance: CodebookStatistics.Summary
            @NullWhenAbsent var worstOffPeakAutocorrelation: Double?
            @NullWhenAbsent var worstCrossCorrelation: Double?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let report = Report(file: file, count: stats.count, length: stats.length, balance: stats.balance,
                            worstOffPeakAutocorrelation: stats.worstOffPeakAutocorrelation,
                            worstCrossCorrelation: stats.worstCrossCorrelation)
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
