/// A cascade of second-order sections run over several channels as a stream:
/// each channel's state (transposed direct form II) is carried from one chunk
/// to the next, so filtering a recording in chunks gives exactly the samples
/// of filtering it at once.
///
/// ```swift
/// var filter = SOSFilter.bandPass(low: 1, high: 40, order: 4, sampleRate: 250, channels: 8)
///     .followed(by: .notch(frequency: 50, quality: 30, sampleRate: 250, channels: 8))
/// let clean = filter.process(chunk)   // chunk: 8 channels × any number of samples
/// ```
public struct SOSFilter: Sendable {
    /// The sections, applied in order.
    public let sections: [Biquad]
    /// Number of channels filtered side by side.
    public let channels: Int
    /// Per channel, per section: the two delay elements.
    private var state: [Double]
    private var primed = false

    /// A filter of `sections` over `channels` channels, starting from rest.
    public init(sections: [Biquad], channels: Int) {
        self.sections = sections
        self.channels = channels
        self.state = [Double](repeating: 0, count: channels * sections.count * 2)
    }

    /// A Butterworth band-pass: a high-pass and a low-pass of `order` each.
    public static func bandPass(low: Double, high: Double, order: Int, sampleRate: Double, channels: Int) -> SOSFilter {
        let q = Biquad.butterworthQualities(order: order)
        return SOSFilter(
            sections: q.map { .highPass(frequency: low, quality: $0, sampleRate: sampleRate) }
                + q.map { .lowPass(frequency: high, quality: $0, sampleRate: sampleRate) },
            channels: channels)
    }

    /// A Butterworth low-pass of `order`.
    public static func lowPass(frequency: Double, order: Int, sampleRate: Double, channels: Int) -> SOSFilter {
        SOSFilter(sections: Biquad.butterworthQualities(order: order).map {
            .lowPass(frequency: frequency, quality: $0, sampleRate: sampleRate)
        }, channels: channels)
    }

    /// A Butterworth high-pass of `order`.
    public static func highPass(frequency: Double, order: Int, sampleRate: Double, channels: Int) -> SOSFilter {
        SOSFilter(sections: Biquad.butterworthQualities(order: order).map {
            .highPass(frequency: frequency, quality: $0, sampleRate: sampleRate)
        }, channels: channels)
    }

    /// A single notch.
    public static func notch(frequency: Double, quality: Double, sampleRate: Double, channels: Int) -> SOSFilter {
        SOSFilter(sections: [.notch(frequency: frequency, quality: quality, sampleRate: sampleRate)], channels: channels)
    }

    /// This filter's sections followed by `other`'s (both fresh).
    public func followed(by other: SOSFilter) -> SOSFilter {
        precondition(channels == other.channels, "both filters must have the same channels")
        return SOSFilter(sections: sections + other.sections, channels: channels)
    }

    /// The cascade's magnitude response at `frequency`.
    public func gain(at frequency: Double, sampleRate: Double) -> Double {
        sections.reduce(1) { $0 * $1.gain(at: frequency, sampleRate: sampleRate) }
    }

    /// Sets each channel's state to the steady state for a constant input
    /// equal to its first sample (as scipy's `lfilter_zi`), so that an offset
    /// at the start of a recording causes no transient.
    public mutating func prime(with firstSamples: [Double]) {
        precondition(firstSamples.count == channels, "one value per channel")
        for c in 0..<channels {
            var x = firstSamples[c]
            for (s, q) in sections.enumerated() {
                let y = x * q.dcGain
                let base = (c * sections.count + s) * 2
                state[base + 1] = q.b2 * x - q.a2 * y
                state[base] = y - q.b0 * x
                x = y
            }
        }
        primed = true
    }

    /// Filters one chunk (channels × samples) and keeps the state for the next.
    public mutating func process(_ chunk: [[Double]]) -> [[Double]] {
        precondition(chunk.count == channels, "one row per channel")
        var out = chunk
        let nSections = sections.count
        for c in 0..<channels {
            var row = chunk[c]
            for s in 0..<nSections {
                let q = sections[s]
                let base = (c * nSections + s) * 2
                var z1 = state[base], z2 = state[base + 1]
                for i in 0..<row.count {
                    let x = row[i]
                    let y = q.b0 * x + z1
                    z1 = q.b1 * x - q.a1 * y + z2
                    z2 = q.b2 * x - q.a2 * y
                    row[i] = y
                }
                state[base] = z1
                state[base + 1] = z2
            }
            out[c] = row
        }
        return out
    }
}
