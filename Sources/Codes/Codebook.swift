import Foundation
/// A set of noise tags: one code per row, one stimulus state per time point.
///
/// States are small integers, usually 0 (off) and 1 (on). Every code has the
/// same, non-zero length. Code `k` is the flicker pattern of the `k`-th
/// flickering control; the engine plays state `t mod length` at bit `t`.
public struct Codebook: Hashable, Sendable {
    /// The codes, each an array of `length` stimulus states.
    public let codes: [[UInt8]]

    /// The codebook's identity: FNV-1a (64-bit) over its length, its code
    /// count and every state, as 16 hex digits. Recordings log it at each
    /// trial so that replay can tell it runs on the same codes.
    public var identity: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for value in [UInt32(length), UInt32(codes.count)] { for shift in stride(from: 0, to: 32, by: 8) { mix(UInt8(truncatingIfNeeded: value >> shift)) } }
        for code in codes { for state in code { mix(state) } }
        return String(format: "%016llx", hash)
    }

    /// Makes a codebook, rejecting an empty book, an empty code or codes of
    /// different lengths.
    public init(codes: [[UInt8]]) throws(CodebookError) {
        guard let first = codes.first else { throw CodebookError(.noCodes) }
        guard !first.isEmpty else { throw CodebookError(.emptyCode(index: 0)) }
        if let bad = codes.firstIndex(where: { $0.count != first.count }) {
            throw CodebookError(.raggedCode(index: bad, expected: first.count, found: codes[bad].count))
        }
        self.codes = codes
    }

    /// For codes already known to be non-empty and rectangular.
    init(validatedCodes codes: [[UInt8]]) {
        self.codes = codes
    }

    /// The number of codes.
    public var count: Int { codes.count }

    /// The number of stimulus states in each code.
    public var length: Int { codes[0].count }

    /// The code at `index`.
    public subscript(index: Int) -> [UInt8] { codes[index] }

    /// The built-in default: the 65-code Gold family of pyntbci's default
    /// preferred pair (`[1,0,0,0,0,1]`, `[1,1,0,0,1,1]`, all-ones seeds; the
    /// 63 pyntbci Gold codes followed by the two m-sequences), modulated to
    /// 126 states per code.
    public static var standard: Codebook { builtIn }

    private static let builtIn: Codebook = {
        // Constant, valid polynomials and seeds: this cannot throw (see CodebookTests).
        try! GoldCodes.make(includingMSequences: true).modulated()
    }()

    /// The codes modulated as pyntbci's `modulate`: every state is repeated
    /// twice and added modulo 2 to a double-rate clock `1, 0, 1, 0, …`, so a 0
    /// becomes `1, 0` and a 1 becomes `0, 1`. The length doubles.
    public func modulated() -> Codebook {
        Codebook(validatedCodes: codes.map { code in
            code.flatMap { state in [(state &+ 1) % 2, state % 2] }
        })
    }

    /// Every code rotated so that it starts at state `offset`:
    /// `shifted[k][t] = codes[k][(t + offset) mod length]`. Negative offsets
    /// rotate the other way. Used to translate codes randomly in training.
    public func cyclicallyShifted(by offset: Int) -> Codebook {
        cyclicallyShifted(by: Array(repeating: offset, count: count))
    }

    /// Code `k` rotated to start at state `offsets[k]` (one offset per code;
    /// `offsets.count` must equal ``count``).
    public func cyclicallyShifted(by offsets: [Int]) -> Codebook {
        precondition(offsets.count == count, "one offset per code is needed")
        let n = length
        return Codebook(validatedCodes: zip(codes, offsets).map { code, offset in
            let start = ((offset % n) + n) % n
            return Array(code[start...] + code[..<start])
        })
    }

    /// The first `n` codes (all of them if `n` is at least ``count``); `nil`
    /// when `n` is less than 1.
    public func prefix(_ n: Int) -> Codebook? {
        n < 1 ? nil : Codebook(validatedCodes: Array(codes.prefix(n)))
    }
}
