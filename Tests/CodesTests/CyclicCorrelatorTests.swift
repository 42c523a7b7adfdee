import Testing
@testable import Codes

@Suite("Cyclic correlator")
struct CyclicCorrelatorTests {
    /// c(τ) = Σₜ a[t]·b[(t + τ) mod L], on = non-zero, computed directly.
    private func counts(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        (0..<a.count).map { lag in (0..<a.count).filter { a[$0] != 0 && b[($0 + lag) % a.count] != 0 }.count }
    }

    @Test(arguments: [1, 3, 4, 8])
    func highestCountsMatchDirectSums(groupSize: Int) {
        var random = SeededGenerator(seed: UInt64(groupSize))
        for length in [1, 2, 5, 8, 9, 63, 64, 65, 130, 300] {
            let correlator = CyclicCorrelator(length: length, groupSize: groupSize)
            for _ in 0..<3 {
                let a = (0..<length).map { _ in UInt8.random(in: 0...2, using: &random) }
                let b = (0..<length).map { _ in UInt8.random(in: 0...1, using: &random) }
                let direct = counts(a, b)
                correlator.load(b)
                let groups = correlator.groups(of: a)
                #expect(correlator.highestCount(groups, lags: 0..<length) == direct.max())
                let lags = (length / 3)..<length
                #expect(correlator.highestCount(groups, lags: lags) == direct[lags].max())
            }
        }
    }

    /// Long enough for the default groups of 4 positions (and a table in four phases).
    @Test func longSparsePatternsMatchDirectSums() {
        var random = SeededGenerator(seed: 9000)
        let length = 9000
        let b = (0..<length).map { _ in UInt8.random(in: 0...1, using: &random) }
        var a = [UInt8](repeating: 0, count: length)
        let on = (0..<40).map { _ in Int.random(in: 0..<length, using: &random) }
        for t in on { a[t] = 1 }
        let direct = (0..<length).map { lag in Set(on).filter { b[($0 + lag) % length] != 0 }.count }
        let correlator = CyclicCorrelator(length: length)
        correlator.load(b)
        let groups = correlator.groups(of: a)
        #expect(correlator.highestCount(groups, lags: 0..<length) == direct.max())
        #expect(correlator.highestCount(groups, lags: 4001..<4099) == direct[4001..<4099].max())
    }

    @Test func allOnAndAllOffPatterns() {
        let correlator = CyclicCorrelator(length: 1000)
        correlator.load([UInt8](repeating: 1, count: 1000))
        // 1000 on-positions: byte sums of 31 groups, then 16-bit sums, must not overflow.
        #expect(correlator.highestCount(correlator.groups(of: [UInt8](repeating: 7, count: 1000)), lags: 0..<1000) == 1000)
        #expect(correlator.highestCount(correlator.groups(of: [UInt8](repeating: 0, count: 1000)), lags: 0..<1000) == 0)
    }
}
