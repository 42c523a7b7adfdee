import Foundation

/// Repairs isolated non-finite samples (NaN, ±∞) of a recording by linear
/// interpolation between the finite neighbours, and leaves out a channel
/// that holds no finite sample at all (a dead electrode, as some amplifiers
/// stream it), with a warning; a recording with no channel left is refused.
enum SampleRepair {
    /// Repairs `samples` (channels × samples) in place and removes the dead
    /// channels from it and from `names` (one per channel; the channels'
    /// numbers from 1 are filled in when it is empty, so that the kept ones
    /// keep theirs); returns one warning per repaired or removed channel and
    /// the removed channels' names. Throws an ``LabFormatError`` about
    /// `subject` when no channel has a finite value. `rate` turns sample
    /// indices into seconds.
    static func interpolateNonFinite(_ samples: inout [[Float]], names: inout [String], rate: Double,
                                     subject: String) throws -> (warnings: [String], dead: [String]) {
        var warnings: [String] = []
        var dead: [Int] = []
        for c in samples.indices {
            let bad = samples[c].indices.filter { !samples[c][$0].isFinite }
            guard !bad.isEmpty else { continue }
            let name = c < names.count && !names[c].isEmpty ? names[c] : "\(c + 1)"
            guard bad.count < samples[c].count else {
                warnings.append("channel \(name) holds no finite sample (all \(bad.count) are NaN or infinite): left out")
                dead.append(c)
                continue
            }
            var row = samples[c]
            var i = 0
            while i < row.count {
                guard !row[i].isFinite else { i += 1; continue }
                var end = i
                while end < row.count, !row[end].isFinite { end += 1 }
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
            samples[c] = row
            let first = bad[0]
            warnings.append("channel \(name): \(bad.count) NaN or infinite sample(s), the first at sample \(first) (\(String(format: "%.3f", Double(first) / rate)) s), replaced by linear interpolation")
        }
        guard !dead.isEmpty else { return (warnings, []) }
        guard dead.count < samples.count else {
            throw LabFormatError(subject, "no channel holds a finite sample (all \(samples.count) are NaN or infinite throughout)")
        }
        if names.count != samples.count { names = (1...samples.count).map(String.init) }
        let deadNames = dead.map { names[$0] }
        for c in dead.reversed() {
            samples.remove(at: c)
            names.remove(at: c)
        }
        return (warnings, deadNames)
    }
}
