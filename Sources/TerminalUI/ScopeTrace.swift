/// How one channel's samples become a scrolling scope trace on a
/// ``BrailleCanvas``: time runs left to right with the newest sample in the
/// rightmost dot column; each dot column shows the range of the samples
/// that fall in it, joined to the sample before, so a fast oscillation
/// reads as a filled band. Columns sit on a fixed grid of the stream's
/// sample count, so the picture slides rather than flickers as samples
/// arrive. A sample that is not finite is a gap: nothing is drawn for it
/// and the trace is not joined across it.
///
/// ```swift
/// var canvas = BrailleCanvas(columns: 50, rows: 3)
/// let trace = ScopeTrace(centre: ScopeTrace.centre(of: samples), span: 100,
///                        samplesPerDot: 1_250 / Double(canvas.dotWidth))
/// let gaps = trace.plot(samples, endingAt: snapshot.sampleCount, on: &canvas)
/// ```
struct ScopeTrace: Equatable, Sendable {
    /// The value drawn in the middle of the band.
    var centre: Double
    /// The values from the band's bottom to its top.
    var span: Double
    /// Samples per dot column (more than 0).
    var samplesPerDot: Double

    /// Draws `samples` (oldest first), the last of which is the stream's
    /// sample number `endIndex - 1`; values outside the span are drawn at
    /// the edge. Returns how many samples were not finite.
    @discardableResult
    func plot(_ samples: [Double], endingAt endIndex: Int, on canvas: inout BrailleCanvas) -> Int {
        let width = canvas.dotWidth, height = canvas.dotHeight
        guard width > 0, height > 0, !samples.isEmpty, samplesPerDot.isFinite, samplesPerDot > 0,
              span.isFinite, span > 0, centre.isFinite else {
            return samples.reduce(0) { $0 + ($1.isFinite ? 0 : 1) }
        }
        let end = max(endIndex, samples.count)
        let first = end - samples.count
        let lastColumn = Self.column(of: end - 1, samplesPerDot: samplesPerDot)
        let top = centre + span / 2
        var nonFinite = 0
        var x = Int.min, low = Int.max, high = Int.min
        var previous: Int?
        for (i, value) in samples.enumerated() {
            let column = width - 1 - (lastColumn - Self.column(of: first + i, samplesPerDot: samplesPerDot))
            if column != x {
                if low <= high { canvas.setDots(x: x, from: low, through: high) }
                x = column
                low = .max
                high = .min
            }
            guard let y = Self.dotRow(of: value, top: top, span: span, height: height) else {
                if !value.isFinite { nonFinite += 1 }
                previous = nil
                continue
            }
            if let previous {
                low = min(low, previous)
                high = max(high, previous)
            }
            low = min(low, y)
            high = max(high, y)
            previous = y
        }
        if low <= high { canvas.setDots(x: x, from: low, through: high) }
        return nonFinite
    }

    /// The dot column on the stream's fixed grid that sample number `index` falls in.
    private static func column(of index: Int, samplesPerDot: Double) -> Int {
        Int((Double(index) / samplesPerDot).rounded(.down))
    }

    /// The dot row of `value` (0 at the top), clamped to the band; nil when not finite.
    private static func dotRow(of value: Double, top: Double, span: Double, height: Int) -> Int? {
        guard value.isFinite else { return nil }
        let position = (top - value) / span * Double(height)
        if position.isNaN { return nil }
        if position < 0 { return 0 }
        if position >= Double(height) { return height - 1 }
        return Int(position)
    }

    /// The mean of the finite samples (0 when there are none): the value a
    /// band is centred on, so each channel's offset is taken away.
    static func centre(of samples: [Double]) -> Double {
        var mean = 0.0, count = 0.0
        for value in samples where value.isFinite {
            count += 1
            mean += (value - mean) / count
        }
        return mean.isFinite ? mean : 0
    }

    /// The swing of the finite samples between their 2nd and 98th
    /// percentiles (0 for fewer than two): what the automatic scale fits,
    /// unmoved by a few spikes.
    static func peakToPeak(of samples: [Double]) -> Double {
        let sorted = samples.filter(\.isFinite).sorted()
        guard sorted.count >= 2 else { return 0 }
        let last = Double(sorted.count - 1)
        let swing = sorted[Int((0.98 * last).rounded())] - sorted[Int((0.02 * last).rounded())]
        return swing.isFinite ? swing : 0
    }
}
