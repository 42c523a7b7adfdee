import Foundation
import Testing
@testable import Codes

@Suite("Codebook statistics")
struct CodebookStatisticsTests {
    @Test func mSequenceOffPeakAutocorrelationIsMinusOneOverN() throws {
        for taps: [UInt8] in [[1, 0, 0, 0, 0, 1], [0, 0, 1, 0, 1], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]] {
            #expect(MSequence.isMaximalLength(taps: taps))
            let bits = try MSequence.make(taps: taps)
            let stats = CodebookStatistics(try Codebook(codes: [bits]))
            #expect(stats.worstOffPeakAutocorrelation == -1 / Double(bits.count))
            #expect(stats.worstCrossCorrelation == nil)
            #expect(stats.balance.mean == Double((bits.count + 1) / 2) / Double(bits.count))
        }
    }

    @Test func goldFamilyCrossCorrelationIsBoundedBy15Over63() throws {
        let stats = CodebookStatistics(try GoldCodes.make(includingMSequences: true))
        #expect(stats.count == 65 && stats.length == 63)
        #expect(stats.worstCrossCorrelation == 15.0 / 63)
        #expect(stats.worstOffPeakAutocorrelation == 15.0 / 63)
    }

    @Test func standardCodebookFigures() {
        let stats = CodebookStatistics(.standard)
        #expect(stats.balance == .init(min: 0.5, mean: 0.5, max: 0.5))
        #expect(stats.worstCrossCorrelation == 34.0 / 126)
        #expect(stats.worstOffPeakAutocorrelation == 34.0 / 126)
    }

    @Test func smallHandComputedCase() throws {
        // Bipolar [+1,+1,-1,-1] and [+1,-1,+1,-1]: cross-correlation 0 at every lag.
        let stats = CodebookStatistics(try Codebook(codes: [[1, 1, 0, 0], [1, 0, 1, 0]]))
        #expect(stats.worstCrossCorrelation == 0)
        // 1010 repeats itself after 2 states: its lag-2 autocorrelation is 1.
        #expect(stats.worstOffPeakAutocorrelation == 1)
        // 1100: lags 1 and 3 give 0, lag 2 gives −1.
        #expect(CodebookStatistics(try Codebook(codes: [[1, 1, 0, 0]])).worstOffPeakAutocorrelation == 0)
        #expect(stats.balance == .init(min: 0.5, mean: 0.5, max: 0.5))
        // Identical codes correlate fully; non-zero states count as "on".
        #expect(CodebookStatistics(try Codebook(codes: [[0, 2, 1], [0, 1, 1]])).worstCrossCorrelation == 1)
    }

    @Test func singleStateCodesHaveNoOffPeakLag() throws {
        let stats = CodebookStatistics(try Codebook(codes: [[1], [0]]))
        #expect(stats.worstOffPeakAutocorrelation == nil)
        #expect(stats.worstCrossCorrelation == -1)
    }

    /// Worst correlations by the definition: bipolar sums over every pair and lag.
    private func reference(_ book: Codebook) -> (auto: Double?, cross: Double?) {
        let n = book.length
        let bipolar = book.codes.map { $0.map { $0 == 0 ? -1 : 1 } }
        func correlation(_ a: [Int], _ b: [Int], _ lag: Int) -> Int {
            (0..<n).reduce(0) { $0 + a[$1] * b[($1 + lag) % n] }
        }
        var auto: Int?, cross: Int?
        for (j, b) in bipolar.enumerated() {
            for lag in 1..<max(n, 1) { auto = max(auto ?? .min, correlation(b, b, lag)) }
            for i in bipolar.indices where i != j {
                for lag in 0..<n { cross = max(cross ?? .min, correlation(bipolar[i], b, lag)) }
            }
        }
        return (auto.map { Double($0) / Double(n) }, cross.map { Double($0) / Double(n) })
    }

    @Test func matchesTheDefinitionOnRandomBooks() throws {
        var random = SeededGenerator(seed: 2024)
        for (count, length) in [(1, 1), (3, 1), (2, 2), (4, 7), (3, 64), (5, 65), (4, 126), (2, 257), (6, 31)] {
            let codes = (0..<count).map { _ in (0..<length).map { _ in UInt8.random(in: 0...2, using: &random) } }
            let book = try Codebook(codes: codes + [[UInt8](repeating: 0, count: length)])
            let stats = CodebookStatistics(book)
            let expected = reference(book)
            #expect(stats.worstOffPeakAutocorrelation == expected.auto, "\(count) × \(length)")
            #expect(stats.worstCrossCorrelation == expected.cross, "\(count) × \(length)")
        }
    }

    @Test func isFastForTheStandardBook() {
        let start = Date()
        for _ in 0..<5 { _ = CodebookStatistics(.standard) }
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
