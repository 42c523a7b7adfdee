import Foundation

/// Finds the mains frequency in a recording from its spectrum, so a raw
/// recording from a 50 Hz or a 60 Hz country is notched without being told:
/// the candidate whose power stands highest above the median of the
/// spectrum around it (±8 Hz, the peak's own ±1.5 Hz left out), summed over
/// channels, wins when it stands at least 5 times (7 dB) above.
public enum MainsDetector {
    /// 50 or 60 (Hz) when one stands out, nil otherwise (no mains visible,
    /// data notched upstream, or a rate too low to see it).
    public static func detect(_ channels: [[Double]], sampleRate: Double, candidates: [Double] = [50, 60]) -> Double? {
        guard sampleRate > 2 * 58, let n = channels.first?.count, n >= 64 else { return nil }
        // About 1 Hz resolution, from at most the first two minutes.
        let segment = 1 << min(12, max(6, Int(log2(sampleRate).rounded())))
        let spectra = channels.map { Spectrum.welch(Array($0.prefix(Int(sampleRate * 120))), sampleRate: sampleRate, segmentLength: segment) }
        var best: (Double, Double)?
        for line in candidates where line + 8 < sampleRate / 2 {
            var peak = 0.0, floor = 0.0
            for s in spectra {
                let near = s.frequencies.indices.filter { abs(s.frequencies[$0] - line) <= 1.5 }
                let around = s.frequencies.indices.filter { abs(s.frequencies[$0] - line) > 1.5 && abs(s.frequencies[$0] - line) <= 8 }
                peak += near.map { s.density[$0] }.max() ?? 0
                let sorted = around.map { s.density[$0] }.sorted()
                floor += sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            }
            let ratio = floor > 0 ? peak / floor : 0
            if ratio >= 5, ratio > (best?.1 ?? 0) { best = (line, ratio) }
        }
        return best?.0
    }
}
