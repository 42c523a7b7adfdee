import Foundation

/// A one-sided power spectral density estimated with Welch's method (Hann
/// window, 50 % overlap, segments transformed by FFTW).
///
/// ```swift
/// let psd = Spectrum.welch(signal, sampleRate: 250, segmentLength: 256)
/// let mains = psd.power(at: 50)          // V²/Hz near 50 Hz
/// let alpha = psd.bandPower(8...12)      // V² in the alpha band
/// ```
public struct Spectrum: Sendable {
    /// Bin centre frequencies in Hz, from 0 to the Nyquist frequency.
    public let frequencies: [Double]
    /// Power spectral density per bin (signal units² per Hz).
    public let density: [Double]

    /// Welch's estimate over `signal`; a signal shorter than one segment is
    /// treated as a single zero-padded segment.
    public static func welch(_ signal: [Double], sampleRate: Double, segmentLength: Int = 256) -> Spectrum {
        let n = segmentLength
        let fft = RealFFT(size: n)
        let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let windowPower = window.reduce(0) { $0 + $1 * $1 }
        var sum = [Double](repeating: 0, count: n / 2 + 1)
        var segments = 0
        var start = 0
        repeat {
            var segment = [Double](repeating: 0, count: n)
            let available = min(n, signal.count - start)
            if available > 0 {
                let mean = signal[start..<(start + available)].reduce(0, +) / Double(available)
                for i in 0..<available { segment[i] = (signal[start + i] - mean) * window[i] }
            }
            let power = fft.powerSpectrum(of: segment)
            for k in sum.indices { sum[k] += power[k] }
            segments += 1
            start += n / 2
        } while start + n <= signal.count
        let scale = 1 / (sampleRate * windowPower * Double(segments))
        let density = sum.enumerated().map { k, p in
            p * scale * ((k == 0 || k == n / 2) ? 1 : 2)
        }
        return Spectrum(frequencies: (0...(n / 2)).map { Double($0) * sampleRate / Double(n) }, density: density)
    }

    /// The density in the bin nearest `frequency`.
    public func power(at frequency: Double) -> Double {
        let step = frequencies.count > 1 ? frequencies[1] : 1
        let k = min(density.count - 1, max(0, Int((frequency / step).rounded())))
        return density[k]
    }

    /// The power in a band: the density integrated over the bins inside it.
    public func bandPower(_ band: ClosedRange<Double>) -> Double {
        let step = frequencies.count > 1 ? frequencies[1] : 1
        return zip(frequencies, density).filter { band.contains($0.0) }.reduce(0) { $0 + $1.1 * step }
    }
}
