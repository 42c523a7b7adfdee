/// Counts, for on/off patterns `a` and `b` of one length `L` and every lag τ,
/// the positions where both are on: `c(τ) = Σₜ a[t] · b[(t + τ) mod L]`
/// (a state is on when non-zero). Used by ``CodebookStatistics``.
///
/// Table look-up ("four Russians"): ``load(_:)`` tabulates, for `b` and each
/// subset `m` of `k` consecutive positions, `S_m(x) = Σ_{i ∈ m} b[(x + i) mod L]`
/// for all `x`, as bytes. `a` is cut into groups of `k` positions; group `g`
/// whose on-positions form `m` adds `S_m(τ + k·g)` to `c(τ)`, which for 64
/// consecutive lags is four 16-byte vector additions from the table. So a pair
/// costs `L/64 · L/k · 4` vector additions (k = 8: 8,000 for L = 1022) where
/// packed words and popcounts take `L · L/64` (16,000, each a software popcount
/// on baseline x86-64).
///
/// ```swift
/// let correlator = CyclicCorrelator(length: 4)
/// correlator.load([1, 1, 0, 0])
/// correlator.highestCount(correlator.groups(of: [1, 0, 1, 0]), lags: 0..<4) // 1
/// ```
final class CyclicCorrelator {
    /// The length `L` of the patterns.
    let length: Int
    /// Positions per group, `k`.
    private let groupSize: Int
    /// Lags per block: four 16-byte vectors.
    private static let blockLags = 64
    private let blockCount: Int
    /// Bytes per table entry: every `x = τ + k·g` a block can read.
    private let entryLength: Int
    /// `2^k` entries of `entryLength` bytes, for the loaded `b`.
    private let table: UnsafeMutablePointer<UInt8>
    /// `b` on/off, extended periodically to `entryLength + k` bytes.
    private let extended: UnsafeMutablePointer<UInt8>
    /// `c(τ)` for the last pair, `blockCount · 64` lags (those from `L` on are filler).
    private let counts: UnsafeMutablePointer<UInt32>

    /// A correlator for patterns of `length` states. `groupSize` (1 to 8; by
    /// default 8, or 4 when a 256-entry table would pass about 4 MB) is for tests.
    init(length: Int, groupSize: Int? = nil) {
        precondition(length > 0, "patterns must not be empty")
        precondition((1...8).contains(groupSize ?? 8), "groups of 1 to 8 positions")
        self.length = length
        blockCount = (length + Self.blockLags - 1) / Self.blockLags
        let groupCount = { (k: Int) in (length + k - 1) / k }
        let wide = blockCount * Self.blockLags + 8 * groupCount(8) <= 16_384
        self.groupSize = groupSize ?? (wide ? 8 : 4)
        entryLength = blockCount * Self.blockLags + self.groupSize * groupCount(self.groupSize)
        table = .allocate(capacity: entryLength << self.groupSize)
        extended = .allocate(capacity: entryLength + self.groupSize)
        counts = .allocate(capacity: blockCount * Self.blockLags)
    }

    deinit {
        table.deallocate()
        extended.deallocate()
        counts.deallocate()
    }

    /// `code` in its role as `a`: the table offset of each group that has an
    /// on-position (`m · entryLength + k · g`). `code` must have ``length`` states.
    func groups(of code: [UInt8]) -> [Int] {
        precondition(code.count == length, "a pattern of another length")
        var offsets: [Int] = []
        for start in stride(from: 0, to: length, by: groupSize) {
            var subset = 0
            for i in 0..<min(groupSize, length - start) where code[start + i] != 0 { subset |= 1 << i }
            if subset != 0 { offsets.append(subset * entryLength + start) }
        }
        return offsets
    }

    /// Makes `code` the `b` of the following ``highestCount(_:lags:)`` calls.
    func load(_ code: [UInt8]) {
        precondition(code.count == length, "a pattern of another length")
        for x in 0..<(entryLength + groupSize) { extended[x] = code[x % length] != 0 ? 1 : 0 }
        table.initialize(repeating: 0, count: entryLength)
        for subset in 1..<(1 << groupSize) {
            // S_m = S_{m without its highest position h} + b shifted by h.
            let highest = Int.bitWidth - 1 - subset.leadingZeroBitCount
            let source = table + (subset ^ (1 << highest)) * entryLength
            let target = table + subset * entryLength
            let shifted = extended + highest
            for x in 0..<entryLength { target[x] = source[x] &+ shifted[x] }
        }
    }

    /// The highest `c(τ)` over `lags` (within `0..<length`, not empty) between
    /// the pattern whose ``groups(of:)`` are given and the loaded one.
    func highestCount(_ groups: [Int], lags: Range<Int>) -> Int {
        precondition(!lags.isEmpty && lags.lowerBound >= 0 && lags.upperBound <= length, "bad lags")
        groups.withUnsafeBufferPointer { groups in
            for block in 0..<blockCount { count(groups, block: block) }
        }
        var highest: UInt32 = 0
        for lag in lags { highest = max(highest, counts[lag]) }
        return Int(highest)
    }

    /// Fills `counts` for the 64 lags of `block`. Byte sums take up to
    /// `255 / k` groups and 16-bit sums up to `65535 / k`, so nothing overflows.
    private func count(_ groups: UnsafeBufferPointer<Int>, block: Int) {
        let base = UnsafeRawPointer(table + block * Self.blockLags)
        let out = UnsafeMutableRawPointer(counts + block * Self.blockLags)
        out.initializeMemory(as: UInt32.self, repeating: 0, count: Self.blockLags)
        let batch = 255 / groupSize, segment = 65_535 / groupSize
        var index = 0
        while index < groups.count {
            let segmentEnd = min(index + segment, groups.count)
            var s0 = SIMD8<UInt16>(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0
            while index < segmentEnd {
                let batchEnd = min(index + batch, segmentEnd)
                var v0 = SIMD16<UInt8>(), v1 = v0, v2 = v0, v3 = v0
                while index < batchEnd {
                    let entry = base + groups[index]
                    v0 &+= entry.loadUnaligned(as: SIMD16<UInt8>.self)
                    v1 &+= entry.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                    v2 &+= entry.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)
                    v3 &+= entry.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
                    index += 1
                }
                s0 &+= SIMD8(truncatingIfNeeded: v0.lowHalf)
                s1 &+= SIMD8(truncatingIfNeeded: v0.highHalf)
                s2 &+= SIMD8(truncatingIfNeeded: v1.lowHalf)
                s3 &+= SIMD8(truncatingIfNeeded: v1.highHalf)
                s4 &+= SIMD8(truncatingIfNeeded: v2.lowHalf)
                s5 &+= SIMD8(truncatingIfNeeded: v2.highHalf)
                s6 &+= SIMD8(truncatingIfNeeded: v3.lowHalf)
                s7 &+= SIMD8(truncatingIfNeeded: v3.highHalf)
            }
            Self.add(s0, to: out)
            Self.add(s1, to: out + 32)
            Self.add(s2, to: out + 64)
            Self.add(s3, to: out + 96)
            Self.add(s4, to: out + 128)
            Self.add(s5, to: out + 160)
            Self.add(s6, to: out + 192)
            Self.add(s7, to: out + 224)
        }
    }

    /// Adds eight 16-bit sums to eight 32-bit counts at `out`.
    @inline(__always)
    private static func add(_ sums: SIMD8<UInt16>, to out: UnsafeMutableRawPointer) {
        let low = out.loadUnaligned(as: SIMD4<UInt32>.self) &+ SIMD4(truncatingIfNeeded: sums.lowHalf)
        let high = out.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self) &+ SIMD4(truncatingIfNeeded: sums.highHalf)
        out.storeBytes(of: low, as: SIMD4<UInt32>.self)
        out.storeBytes(of: high, toByteOffset: 16, as: SIMD4<UInt32>.self)
    }
}
