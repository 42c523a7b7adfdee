import Codes
import Testing

/// The Gold codes the simulator and `decoder simulate` flicker.
@Suite struct GoldCodeSetTests {
    @Test func goldCodesAreBalancedAndDistinct() {
        let codes = GoldCodeSet.codes(count: 65)
        #expect(Set(codes).count == 65)
        #expect(codes.allSatisfy { $0.count == 63 })
        #expect(codes.prefix(2).allSatisfy { $0.reduce(0) { $0 + Int($1) } == 32 }, "m-sequences have 32 ones")
    }

    /// The family the simulator has always flickered (the recurrence
    /// s[n+6] = XOR of s[n+t] from the seed 1 0 0 0 0 0), written out here
    /// independently: saved simulated datasets and seeds stay valid now that
    /// the codes come from the shared m-sequence registers.
    @Test func theFamilyIsTheOneTheSimulatorHasAlwaysFlickered() {
        func recurrence(_ taps: [Int]) -> [UInt8] {
            var s: [UInt8] = [1, 0, 0, 0, 0, 0]
            while s.count < 63 { s.append(taps.reduce(0) { $0 ^ s[s.count - 6 + $1] }) }
            return s
        }
        let a = recurrence([1, 0]), b = recurrence([5, 2, 1, 0])
        let expected = [a, b] + (0..<63).map { shift in (0..<63).map { a[$0] ^ b[($0 + shift) % 63] } }
        #expect(GoldCodeSet.codes(count: 65) == expected)
        #expect(GoldCodeSet.codes(count: 9) == Array(expected.prefix(9)))
    }
}
