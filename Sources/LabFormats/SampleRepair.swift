import Foundation

/// Repairs isolated non-finite samples (NaN, ±∞) of a recording by linear
/// interpolation between the finite neighbours (and reports the runs longer
/// than ``longestRepair`` as gaps, which trials must avoid), and leaves out a channel
/// that holds no finite sample at all (a dead electrode, as some amplifiers
/// stream it), with a warning; a recording with no channel left is refused.
enum SampleRepair {
    /// Repairs `samples` (channels × samples) in place and removes the dead
    /// channels from it and from `names` (one per channel; the channels'
    /// numbers from 1 are filled in when it is empty, so that the kept ones
    /// keep theirs); returns one warning per repaired or removed channel and
    /// the removed channels' names. A channel counts as dead when it holds
    /// no finite sample, or when more than ``mostRepaired`` of its samples
    /// would be drawn in by interpolation (NaN in every other sample: half
    /// of it would be made up). `lost` are samples the importer knows were
    /// never received (it wrote NaN there): repaired and reported as gaps
    /// like the rest, but not counted against a channel. Throws an
    /// ``LabFormatError`` about `subject` when no channel is left. `rate`
    /// turns sample indices into seconds.
    static func interpolateNonFinite(_ samples: inout [[Float]], names: inout [String], rate: Double, subject: String,
                                     lost: [Range<Int>] = []) throws -> (warnings: [String], dead: [String], gaps: [Range<Int>]) {
        var warnings: [String] = []
        var dead: [Int] = []
        var gaps: [Range<Int>] = []
        let longest = max(1, Int((longestRepair * rate).rounded()))
        let lostShort = lost.reduce(0) { $0 + ($1.count <= longest ? $1.count : 0) }
        var throughout = 0
        for c in samples.indices {
            let bad = samples[c].indices.filter { !samples[c][$0].isFinite }
            guard !bad.isEmpty else { continue }
            let name = c < names.count && !names[c].isEmpty ? names[c] : "\(c + 1)"
            guard bad.count < samples[c].count else {
                warnings.append("channel \(name) holds no finite sample (all \(bad.count) are NaN or infinite): left out")
                dead.append(c)
                throughout += 1
                continue
            }
            let (row, channelGaps, bridgedCount) = bridged(samples[c], longest: longest)
            let madeUp = bridgedCount - lostShort
            if Double(madeUp) > mostRepaired * Double(samples[c].count) {
                warnings.append("channel \(name): \(madeUp) of \(samples[c].count) samples NaN or infinite between finite ones (more than \(Int(mostRepaired * 100)) %, too many to interpolate): left out")
                dead.append(c)
                continue
            }
            samples[c] = row
            gaps += channelGaps
            let inFile = bad.filter { k in !lost.contains { $0.contains(k) } }
            if let first = inFile.first {
                warnings.append("channel \(name): \(inFile.count) NaN or infinite sample(s), the first at sample \(first) (\(String(format: "%.3f", Double(first) / rate)) s), replaced by linear interpolation")
            }
        }
        gaps = Self.union(gaps)
        guard !dead.isEmpty else { return (warnings, [], gaps) }
        guard dead.count < samples.count else {
            guard throughout < samples.count else {
                throw LabFormatError(subject, "no channel holds a finite sample (all \(samples.count) are NaN or infinite throughout)")
            }
            throw LabFormatError(subject, "no channel is left: each is NaN or infinite throughout or in more than \(Int(mostRepaired * 100)) % of its samples")
        }
        if names.count != samples.count { names = (1...samples.count).map(String.init) }
        let deadNames = dead.map { names[$0] }
        for c in dead.reversed() {
            samples.remove(at: c)
            names.remove(at: c)
        }
        return (warnings, deadNames, gaps)
    }

    /// The largest share of a channel's samples that interpolation may
    /// draw in (runs no longer than ``longestRepair``); a channel beyond it
    /// is left out rather than made up.
    static let mostRepaired = 0.05

    /// `row` with every run of non-finite samples drawn as a straight line
    /// between its finite neighbours (or held flat at an end); the runs
    /// longer than `longest` (gaps); and how many samples lay in the
    /// shorter runs.
    private static func bridged(_ row: [Float], longest: Int) -> (row: [Float], gaps: [Range<Int>], short: Int) {
        var row = row, gaps: [Range<Int>] = [], short = 0
        var i = 0
        while i < row.count {
            guard !row[i].isFinite else { i += 1; continue }
            var end = i
            while end < row.count, !row[end].isFinite { end += 1 }
            if end - i > longest { gaps.append(i..<end) } else { short += end - i }
            let before = i > 0 ? row[i - 1] : nil
            let after = end < row.count ? row[end] : nil
            for k in i..<end {
                switch (before, after) {
                case let (b?, a?): row[k] = b + (a - b) * Float(k - i + 1) / Float(end - i + 1)
                case let (b?, nil): row[k] = b
                case let (nil, a?): row[k] = a
                case (nil, nil): row[k] = 0
                }
            }
            i = end
        }
        return (row, gaps, short)
    }

    /// The longest run of non-finite samples (seconds) that is a dropout to
    /// bridge (a lost radio packet is a few samples); a longer one is a gap
    /// whose straight line no trial should be decoded from.
    static let longestRepair = 0.1

    /// `ranges` merged where they overlap or touch, in order.
    static func union(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
