#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Decoding

/// A channel's power spectrum as a row of bars: Welch's estimate
/// (``Spectrum/welch(_:sampleRate:segmentLength:)``, about 1 Hz bins) from
/// 1 Hz up to 60 Hz (or the Nyquist frequency), each bar the highest
/// density in its stretch of frequencies in decibels, scaled so that the
/// channel's strongest bar is full height and one ``dynamicRange`` below it
/// is empty. A 50 Hz mains line and a 10 Hz alpha peak stand out as the
/// tallest bars.
///
/// ```swift
/// if let spectrum = SpectrumBars.spectrum(of: channel.samples, sampleRate: 250),
///    let heights = SpectrumBars.heights(of: spectrum, cells: 30, upTo: SpectrumBars.top(sampleRate: 250)) {
///     // heights[i] in 0…1 for cell i
/// }
/// ```
enum SpectrumBars {
    /// The lowest frequency shown, Hz.
    static let lowest = 1.0
    /// The highest frequency shown when the sample rate allows, Hz.
    static let highest = 60.0
    /// Decibels from a full bar to an empty one.
    static let dynamicRange = 40.0
    /// The bar characters by eighths filled, 1…8.
    static let blocks: [Unicode.Scalar] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The highest frequency shown at `sampleRate`: 60 Hz or the Nyquist
    /// frequency, whichever is lower; nil when that is not above 1 Hz.
    static func top(sampleRate: Double) -> Double? {
        guard sampleRate.isFinite, sampleRate / 2 > lowest else { return nil }
        return min(highest, sampleRate / 2)
    }

    /// Welch's estimate over the longest stretch of finite samples, in
    /// segments of the power of two nearest above the sample rate (about
    /// 1 Hz bins) or as long as the stretch allows; nil when the rate is
    /// unusable or fewer than 32 finite samples follow one another.
    static func spectrum(of samples: [Double], sampleRate: Double) -> Spectrum? {
        guard top(sampleRate: sampleRate) != nil else { return nil }
        var bestStart = 0, bestLength = 0, start = 0
        for (i, value) in samples.enumerated() where !value.isFinite {
            if i - start > bestLength { (bestStart, bestLength) = (start, i - start) }
            start = i + 1
        }
        if samples.count - start > bestLength { (bestStart, bestLength) = (start, samples.count - start) }
        guard bestLength >= 32 else { return nil }
        var segment = 32
        while segment < bestLength, Double(segment) < sampleRate, segment < 1 << 16 { segment *= 2 }
        if segment > bestLength { segment /= 2 }
        let stretch = Array(samples[bestStart..<(bestStart + bestLength)])
        return Spectrum.welch(stretch, sampleRate: sampleRate, segmentLength: segment)
    }

    /// The frequencies cell `cell` of `cells` covers, from ``lowest`` to `top`.
    static func band(of cell: Int, cells: Int, upTo top: Double) -> Range<Double> {
        let step = (top - lowest) / Double(max(1, cells))
        return (lowest + Double(cell) * step)..<(lowest + Double(cell + 1) * step)
    }

    /// The cell that shows `frequency` (clamped to the row).
    static func cell(of frequency: Double, cells: Int, upTo top: Double) -> Int {
        let position = (frequency - lowest) / (top - lowest) * Double(cells)
        guard position.isFinite else { return 0 }
        return min(cells - 1, max(0, Int(position.rounded(.down))))
    }

    /// Bar heights 0…1 for `cells` cells up to `top` Hz; nil when the
    /// spectrum holds no power there (a flat channel) or no finite figure.
    static func heights(of spectrum: Spectrum, cells: Int, upTo top: Double) -> [Double]? {
        guard cells > 0, top > lowest else { return nil }
        var peaks = [Double](repeating: -1, count: cells)
        for (frequency, density) in zip(spectrum.frequencies, spectrum.density) where frequency >= lowest && frequency < top {
            let cell = cell(of: frequency, cells: cells, upTo: top)
            peaks[cell] = max(peaks[cell], density)
        }
        var decibels = [Double](repeating: -.infinity, count: cells)
        for cell in 0..<cells {
            var peak = peaks[cell]
            if peak < 0 {   // no bin inside a cell narrower than a bin: the nearest one
                let band = band(of: cell, cells: cells, upTo: top)
                peak = spectrum.power(at: (band.lowerBound + band.upperBound) / 2)
            }
            if peak > 0, peak.isFinite { decibels[cell] = 10 * log10(peak) }
        }
        guard let loudest = decibels.max(), loudest.isFinite else { return nil }
        let floor = loudest - dynamicRange
        return decibels.map { max(0, min(1, ($0 - floor) / dynamicRange)) }
    }

    /// The character of one row of a bar `height` (0…1) tall in a band of
    /// `rows` rows, `row` counted from the bottom: a full block, a partial
    /// one, or nil above the bar.
    static func character(height: Double, rows: Int, row: Int) -> Unicode.Scalar? {
        let eighths = Int((height * Double(rows * 8)).rounded()) - row * 8
        guard eighths > 0 else { return nil }
        return blocks[min(8, eighths) - 1]
    }
}
