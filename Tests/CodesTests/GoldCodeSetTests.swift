import Decoding
import Testing

/// The Gold codes the simulator and `decoder simulate` flicker.
@Suite struct GoldCodeSetTests {
    @Test func goldCodesAreBalancedAndDistinct() {
        let codes = GoldCodeSet.codes(count: 65)
        #expect(Set(codes).count == 65)
        #expect(codes.allSatisfy { $0.count == 63 })
        #expect(codes.prefix(2).allSatisfy { $0.reduce(0) { $0 + Int($1) } == 32 }, "m-sequences have 32 ones")
    }
}
