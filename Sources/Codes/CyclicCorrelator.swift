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
/// The table holds each entry as 16-byte vectors (`SIMD16<UInt8>` elements)
/// so that every read is whole array elements: plain indexing, no byte-level
/// loads. As a group's reads start at a multiple of `s = gcd(k, 16)` bytes,
/// the entry is kept in `16/s` phases, phase `p` cut into vectors at bytes
/// `p·s + 16j`; a block's four vectors are then four consecutive elements of
/// one phase (k = 8: two phases, twice the bytes of the entry).
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
    /// Bytes between the starts of two phases, `s = gcd(k, 16)`: every `x` a block reads is a multiple.
    private let step: Int
    /// Vectors per phase, enough for the entry's bytes.
    private let vectorsPerPhase: Int
    /// Vectors per table entry, all its phases.
    private let vectorsPerEntry: Int
    /// `2^k` entries of ``vectorsPerEntry`` vectors, for the loaded `b`: vector
    /// `j` of phase `p` of entry `m` holds `S_m(x ..< x + 16)`, `x = p·s + 16j`.
    private var table: [SIMD16<UInt8>]

    /// A correlator for patterns of `length` states. `groupSize` (1 to 8; by
    /// default 8, or 4 when a 256-entry table would pass about 4 MB) is for tests.
    init(length: Int, groupSize: Int? = nil) {
        precondition(length > 0, "patterns must not be empty")
        precondition((1...8).contains(groupSize ?? 8), "groups of 1 to 8 positions")
        self.length = length
        blockCount = (length + Self.blockLags - 1) / Self.blockLags
        let groupCount = { (k: Int) in (length + k - 1) / k }
        // 256 entries of two phases of entryLength bytes.
        let wide = blockCount * Self.blockLags + 8 * groupCount(8) <= 8_192
        let k = groupSize ?? (wide ? 8 : 4)
        self.groupSize = k
        entryLength = blockCount * Self.blockLags + k * groupCount(k)
        step = k & -k // the lowest set bit of k (1 to 8) is gcd(k, 16)
        vectorsPerPhase = (entryLength + 15) / 16
        vectorsPerEntry = 16 / step * vectorsPerPhase
        table = [SIMD16<UInt8>](repeating: SIMD16(), count: vectorsPerEntry << k)
    }

    /// `code` in its role as `a`: for each group that has an on-position, the
    /// table index of the first vector it reads at lag 0 (entry `m`, byte `k·g`).
    /// `code` must have ``length`` states.
    func groups(of code: [UInt8]) -> [Int] {
        precondition(code.count == length, "a pattern of another length")
        var offsets: [Int] = []
        for start in stride(from: 0, to: length, by: groupSize) {
            var subset = 0
            for i in 0..<min(groupSize, length - start) where code[start + i] != 0 { subset |= 1 << i }
            if subset != 0 { offsets.append(subset * vectorsPerEntry + vectorIndex(ofByte: start)) }
        }
        return offsets
    }

    /// The index within an entry of the vector that starts at byte `x` (a multiple of `s`).
    private func vectorIndex(ofByte x: Int) -> Int {
        x % 16 / step * vectorsPerPhase + x / 16
    }

    /// Makes `code` the `b` of the following ``highestCount(_:lags:)`` calls.
    func load(_ code: [UInt8]) {
        precondition(code.count == length, "a pattern of another length")
        // `b` on/off, extended periodically so that every vector of every shift fits.
        let extended = (0..<(16 * vectorsPerPhase + 16 + groupSize)).map { x in code[x % length] != 0 ? UInt8(1) : 0 }
        // The vectors of `b` shifted by h, for each position h of a group, in table order.
        var shifted: [SIMD16<UInt8>] = []
        shifted.reserveCapacity(groupSize * vectorsPerEntry)
        for highest in 0..<groupSize {
            for phaseStart in stride(from: 0, to: 16, by: step) {
                for vector in 0..<vectorsPerPhase {
                    let start = highest + phaseStart + 16 * vector
                    var bytes = SIMD16<UInt8>()
                    for lane in 0..<16 { bytes[lane] = extended[start + lane] }
                    shifted.append(bytes)
                }
            }
        }
        var table = self.table
        self.table = [] // leaves `table` the only reference, so it is filled in place
        for vector in 0..<vectorsPerEntry { table[vector] = SIMD16() }
        for subset in 1..<(1 << groupSize) {
            // S_m = S_{m without its highest position h} + b shifted by h.
            let highest = Int.bitWidth - 1 - subset.leadingZeroBitCount
            let source = (subset ^ (1 << highest)) * vectorsPerEntry
            let target = subset * vectorsPerEntry
            let shift = highest * vectorsPerEntry
            for vector in 0..<vectorsPerEntry {
                table[target + vector] = table[source + vector] &+ shifted[shift + vector]
            }
        }
        self.table = table
    }

    /// The highest `c(τ)` over `lags` (within `0..<length`, not empty) between
    /// the pattern whose ``groups(of:)`` are given and the loaded one.
    func highestCount(_ groups: [Int], lags: Range<Int>) -> Int {
        precondition(!lags.isEmpty && lags.lowerBound >= 0 && lags.upperBound <= length, "bad lags")
        var highest = SIMD8<UInt32>()
        for block in 0..<blockCount { count(groups, block: block, lags: lags, highest: &highest) }
        return Int(highest.max())
    }

    /// Counts `c(τ)` for the 64 lags of `block` and raises `highest` (lane by
    /// lane) to those in `lags`. Byte sums take up to `255 / k` groups and
    /// 16-bit sums up to `65535 / k`, so nothing overflows.
    private func count(_ groups: [Int], block: Int, lags: Range<Int>, highest: inout SIMD8<UInt32>) {
        let table = self.table, firstLag = block * Self.blockLags
        let base = firstLag / 16 // vectors from lag 0 to the block's first lag, in every phase
        let batch = 255 / groupSize, segment = 65_535 / groupSize
        var c0 = SIMD8<UInt32>(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0
        var index = 0
        while index < groups.count {
            let segmentEnd = min(index + segment, groups.count)
            var s0 = SIMD8<UInt16>(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0
            while index < segmentEnd {
                let batchEnd = min(index + batch, segmentEnd)
                var v0 = SIMD16<UInt8>(), v1 = v0, v2 = v0, v3 = v0
                for offset in groups[index..<batchEnd] {
                    // Wrapping sums: an index out of range still traps, at the array's bounds check.
                    let first = base &+ offset
                    v0 &+= table[first]
                    v1 &+= table[first &+ 1]
                    v2 &+= table[first &+ 2]
                    v3 &+= table[first &+ 3]
                }
                index = batchEnd
                s0 &+= SIMD8(truncatingIfNeeded: v0.lowHalf)
                s1 &+= SIMD8(truncatingIfNeeded: v0.highHalf)
                s2 &+= SIMD8(truncatingIfNeeded: v1.lowHalf)
                s3 &+= SIMD8(truncatingIfNeeded: v1.highHalf)
                s4 &+= SIMD8(truncatingIfNeeded: v2.lowHalf)
                s5 &+= SIMD8(truncatingIfNeeded: v2.highHalf)
                s6 &+= SIMD8(truncatingIfNeeded: v3.lowHalf)
                s7 &+= SIMD8(truncatingIfNeeded: v3.highHalf)
            }
            c0 &+= SIMD8(truncatingIfNeeded: s0)
            c1 &+= SIMD8(truncatingIfNeeded: s1)
            c2 &+= SIMD8(truncatingIfNeeded: s2)
            c3 &+= SIMD8(truncatingIfNeeded: s3)
            c4 &+= SIMD8(truncatingIfNeeded: s4)
            c5 &+= SIMD8(truncatingIfNeeded: s5)
            c6 &+= SIMD8(truncatingIfNeeded: s6)
            c7 &+= SIMD8(truncatingIfNeeded: s7)
        }
        if lags.lowerBound <= firstLag && firstLag + Self.blockLags <= lags.upperBound {
            let low = pointwiseMax(pointwiseMax(c0, c1), pointwiseMax(c2, c3))
            let high = pointwiseMax(pointwiseMax(c4, c5), pointwiseMax(c6, c7))
            highest = pointwiseMax(highest, pointwiseMax(low, high))
        } else {
            Self.raise(&highest, to: c0, firstLag: firstLag, lags: lags)
            Self.raise(&highest, to: c1, firstLag: firstLag + 8, lags: lags)
            Self.raise(&highest, to: c2, firstLag: firstLag + 16, lags: lags)
            Self.raise(&highest, to: c3, firstLag: firstLag + 24, lags: lags)
            Self.raise(&highest, to: c4, firstLag: firstLag + 32, lags: lags)
            Self.raise(&highest, to: c5, firstLag: firstLag + 40, lags: lags)
            Self.raise(&highest, to: c6, firstLag: firstLag + 48, lags: lags)
            Self.raise(&highest, to: c7, firstLag: firstLag + 56, lags: lags)
        }
    }

    /// Raises `highest` to the counts for lags `firstLag ..< firstLag + 8` that
    /// lie in `lags` (lags from `length` on are filler, and `lags` may leave out more).
    private static func raise(_ highest: inout SIMD8<UInt32>, to counts: SIMD8<UInt32>, firstLag: Int, lags: Range<Int>) {
        for lane in 0..<8 where lags.contains(firstLag + lane) { highest[lane] = max(highest[lane], counts[lane]) }
    }
}
