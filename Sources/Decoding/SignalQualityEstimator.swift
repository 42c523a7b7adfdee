import Foundation

/// Per-channel signal quality over the last `window` seconds of raw EEG, as
/// the SIGNALQUALITY message reports it. For each channel, the Welch spectrum
/// (FFTW) gives the signal power between 1 and 40 Hz (mains excluded) and the
/// noise power at the mains frequency (±1 Hz) and above 45 Hz; the quality is
/// `n / (n + s)`, 0 for a clean channel and towards 1 for a noisy one.
/// Channels with no data, no variation, clipped or non-finite samples, or a
/// sample rate too low to tell, are reported as 1 with the problem named.
/// Never NaN.
///
/// ```swift
/// var estimator = SignalQualityEstimator(channels: 8, sampleRate: 250)
/// estimator.append(block)                              // channels × samples, µV
/// let qualities = estimator.assess().map(\.quality)    // one figure per channel, as SIGNALQUALITY sends them
/// ```
public struct SignalQualityEstimator: Sendable {
    /// Number of channels.
    public let channels: Int
    /// Samples per second the data is said to have.
    public let sampleRate: Double
    /// Mains frequency in Hz.
    public let lineFrequency: Double
    /// Samples kept per channel (the assessment window).
    public let capacity: Int
    private var buffers: [[Double]]

    /// An estimator over the last `window` seconds.
    public init(channels: Int, sampleRate: Double, lineFrequency: Double = 50, window: Double = 2) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.lineFrequency = lineFrequency
        capacity = sampleRate.isFinite && sampleRate > 0 ? max(16, Int((window * sampleRate).rounded())) : 16
        buffers = [[Double]](repeating: [], count: channels)
    }

    /// Adds samples (channels × samples); a channel with a non-finite sample
    /// in the window is bad until that sample leaves the window.
    public mutating func append(_ block: [[Double]]) {
        for c in 0..<min(channels, block.count) {
            var kept = buffers[c]
            kept += block[c]
            if kept.count > capacity { kept.removeFirst(kept.count - capacity) }
            buffers[c] = kept
        }
    }

    /// The quality of every channel now.
    public func assess() -> [ChannelQuality] {
        guard sampleRate.isFinite, sampleRate >= 2 * 45 + 10 else {
            return Array(repeating: ChannelQuality(quality: 1, problem: "sample rate \(sampleRate) Hz is too low to assess (needs 100 Hz)"),
                         count: channels)
        }
        return (0..<channels).map { assess(channel: $0) }
    }

    private func assess(channel c: Int) -> ChannelQuality {
        let x = buffers[c]
        let nonFinite = x.filter { !$0.isFinite }.count
        if nonFinite > 0 { return ChannelQuality(quality: 1, problem: "not finite (\(nonFinite) samples)") }
        guard x.count >= capacity / 2 else { return ChannelQuality(quality: 1, problem: "no data") }
        let mean = x.reduce(0, +) / Double(x.count)
        let variance = x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count)
        guard variance > 1e-6 else { return ChannelQuality(quality: 1, problem: "flat") }
        let low = x.min()!, high = x.max()!
        let atRails = x.filter { $0 == low || $0 == high }.count
        if Double(atRails) > 0.05 * Double(x.count) { return ChannelQuality(quality: 1, problem: "clipped") }
        let psd = Spectrum.welch(x, sampleRate: sampleRate, segmentLength: min(256, x.count))
        let line = (lineFrequency - 1)...(lineFrequency + 1)
        let signal = zip(psd.frequencies, psd.density)
            .filter { (1...40).contains($0.0) && !line.contains($0.0) }.reduce(0) { $0 + $1.1 }
        let noise = zip(psd.frequencies, psd.density)
            .filter { line.contains($0.0) || $0.0 >= 45 }.reduce(0) { $0 + $1.1 }
        let total = signal + noise
        guard total > 0, total.isFinite else { return ChannelQuality(quality: 1, problem: "no power") }
        return ChannelQuality(quality: noise / total)
    }
}
