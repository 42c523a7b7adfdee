import Testing
@testable import Codes

@Suite("m-sequences and Gold codes against pyntbci 1.9.0")
struct CodesGenerationTests {
    @Test func mSequencesMatchPyntbciBitForBit() throws {
        let entries = try CodesFixtures.pyntbciCodes().filter { $0["kind"] as? String == "m-sequence" }
        #expect(entries.count == 4)
        for entry in entries {
            let taps = try #require(CodesFixtures.bits(entry["poly"]))
            let seed = CodesFixtures.bits(entry["seed"])
            let expected = try #require(CodesFixtures.bits(entry["bits"]))
            #expect(try MSequence.make(taps: taps, seed: seed) == expected, "poly \(taps) seed \(String(describing: seed))")
        }
    }

    @Test func goldCodesMatchPyntbciBitForBit() throws {
        let entry = try #require(try CodesFixtures.pyntbciCodes().first { $0["kind"] as? String == "gold" })
        let book = try GoldCodes.make(taps1: try #require(CodesFixtures.bits(entry["poly1"])),
                                      taps2: try #require(CodesFixtures.bits(entry["poly2"])),
                                      seed1: CodesFixtures.bits(entry["seed1"]),
                                      seed2: CodesFixtures.bits(entry["seed2"]))
        #expect(book.count == 63 && book.length == 63)
        #expect(book.codes == CodesFixtures.rows(entry["bits"]))
    }

    @Test func modulatedGoldCodesMatchPyntbci() throws {
        let entry = try #require(try CodesFixtures.pyntbciCodes().first { $0["kind"] as? String == "modulated-gold-first-4" })
        let book = try GoldCodes.make(taps1: try #require(CodesFixtures.bits(entry["poly1"])),
                                      taps2: try #require(CodesFixtures.bits(entry["poly2"])))
        let expected = CodesFixtures.rows(entry["bits"])
        #expect(expected.count == 4)
        #expect(book.modulated().prefix(4)?.codes == expected)
    }

    @Test func goldFamilyAppendsTheTwoMSequences() throws {
        let family = try GoldCodes.make(includingMSequences: true)
        #expect(family.count == 65)
        #expect(family[63] == (try MSequence.make(taps: GoldCodes.defaultTaps1)))
        #expect(family[64] == (try MSequence.make(taps: GoldCodes.defaultTaps2)))
        #expect(family.prefix(63) == (try GoldCodes.make()))
    }

    @Test func defaultsAreThoseOfPyntbci() throws {
        #expect(try MSequence.make() == (try MSequence.make(taps: [1, 0, 0, 0, 0, 1], seed: [1, 1, 1, 1, 1, 1])))
        #expect(MSequence.defaultTaps == [1, 0, 0, 0, 0, 1])
        #expect(GoldCodes.defaultTaps2 == [1, 1, 0, 0, 1, 1])
    }

    @Test func primitivePolynomialsAreRecognised() {
        #expect(MSequence.isMaximalLength(taps: [1, 0, 0, 0, 0, 1]))
        #expect(MSequence.isMaximalLength(taps: [1, 1, 0, 0, 1, 1]))
        #expect(MSequence.isMaximalLength(taps: [0, 0, 0, 0, 1, 1]))
        #expect(!MSequence.isMaximalLength(taps: [1, 0, 0, 1, 0])) // degree-4 recurrence in a 5-cell register
        #expect(!MSequence.isMaximalLength(taps: [1, 1, 1, 1, 1, 1]))
    }

    @Test(arguments: [
        ([UInt8](), nil, CodeGenerationError.emptyPolynomial),
        ([0, 0, 0], nil, .zeroPolynomial([0, 0, 0])),
        ([1, 2, 0], nil, .nonBinaryPolynomial([1, 2, 0])),
        ([1, 0, 1], [1, 1], .seedLengthMismatch(seedLength: 2, degree: 3)),
        ([1, 0, 1], [0, 0, 0], .zeroSeed),
        ([1, 0, 1], [0, 3, 0], .nonBinarySeed([0, 3, 0])),
        (Array(repeating: 1, count: 21), nil, .degreeOutOfRange(degree: 21, allowed: 1...20)),
    ] as [([UInt8], [UInt8]?, CodeGenerationError)])
    func badPolynomialsAndSeedsAreRejected(taps: [UInt8], seed: [UInt8]?, expected: CodeGenerationError) {
        #expect(throws: expected) { try MSequence.make(taps: taps, seed: seed) }
    }

    @Test func goldCodesNeedPolynomialsOfOneDegree() {
        #expect(throws: CodeGenerationError.degreesDiffer(6, 5)) {
            try GoldCodes.make(taps1: [1, 0, 0, 0, 0, 1], taps2: [1, 0, 0, 1, 0])
        }
        #expect(!CodeGenerationError.degreesDiffer(6, 5).description.isEmpty)
    }
}
