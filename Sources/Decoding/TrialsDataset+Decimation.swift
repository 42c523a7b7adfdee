import Foundation

extension TrialsDataset {
    /// The dataset at a decoding rate of at most `maximumRate` (by the
    /// smallest integer factor that gets there; itself when already there):
    /// every channel through ``Downsampler``'s anti-alias low-pass (primed on
    /// its first sample) and every factor-th sample kept, the continuous
    /// recording as a whole where the dataset keeps one, each trial on its
    /// own otherwise; `V` keeps every factor-th sample. A trial's onset
    /// becomes the first kept sample at or after it, so its stimulus may
    /// lead its EEG by less than one original sample period per factor step
    /// (under 4 ms from 512 Hz). The c-VEP responses lie below 60 Hz, while a
    /// reconvolution model's size grows with the rate (0.5 s of response is
    /// 1,024 lags per event at 2,048 Hz), so offline evaluation decodes at
    /// most 256 samples per second.
    public func decimated(toAtMost maximumRate: Double) throws -> TrialsDataset {
        let h = header
        let factor = Int((h.fs / maximumRate).rounded(.up))
        guard factor > 1 else { return self }
        func decimate(_ rows: [[Double]]) -> [[Double]] {
            var down = Downsampler(factor: factor, sampleRate: h.fs, channels: rows.count)
            let offsets = rows.map { $0.first ?? 0 }
            let out = down.process(zip(rows, offsets).map { row, c in row.map { $0 - c } })
            return zip(out, offsets).map { row, c in row.map { $0 + c } }
        }
        let n = h.nSamples / factor
        var decimatedHeader = h
        decimatedHeader.fs = h.fs / Double(factor)
        decimatedHeader.nSamples = n
        let v = (0..<h.nClasses).flatMap { k in stimulus(ofClass: k).enumerated().filter { $0.offset % factor == 0 }.prefix(n).map(\.element) }
        if let context {
            let rows = decimate((0..<h.nChannels).map(context.channel))
            let length = rows.first?.count ?? 0
            let onsets = context.onsets.map { min(($0 + factor - 1) / factor, max(0, length - n)) }
            return try TrialsDataset(header: decimatedHeader, continuous: rows.flatMap { $0.map(Float.init) }, length: length,
                                     onsets: onsets, labels: labels, stimulus: v)
        }
        var x: [Float] = []
        x.reserveCapacity(h.nTrials * h.nChannels * n)
        for t in 0..<h.nTrials { for row in decimate(trial(t)) { x += row.prefix(n).map(Float.init) } }
        return try TrialsDataset(header: decimatedHeader, data: x, labels: labels, stimulus: v)
    }
}
