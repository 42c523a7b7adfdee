import Decoding

/// The EEG a ``RecordingPlayback`` streams, channel-major, and where each
/// trial's sample 0 falls in it. With a continuous context it is the
/// recording from 3 s before the first trial to 1 s after the last (so the
/// decoder's continuous filter has settled when the first trial starts);
/// without one, the cut trials back to back with 1 s of rest before each
/// and 0.5 s after the last. A rest is mirrored signal, not zeros: its
/// first half is the previous trial's end played backwards and its second
/// half the next trial's start played backwards, so the signal is
/// continuous at both edges of every trial and the decoder's filter does
/// not ring into a trial (a step from zero to the EEG's offset would); its
/// one jump lies in the middle of the rest, half a second from either trial.
struct PlaybackSignal: Sendable {
    /// Channels.
    let channels: Int
    /// Samples per channel.
    let length: Int
    /// Channels × ``length``, channel-major, as recorded.
    let samples: [Float]
    /// Each trial's sample 0 in ``samples``, in the dataset's trial order.
    let trialStarts: [Int]

    /// Seconds played before the first trial of a continuous recording.
    static let lead = 3.0
    /// Seconds played after the last trial of a continuous recording.
    static let tail = 1.0
    /// Seconds of rest before each cut trial.
    static let rest = 1.0

    init(_ dataset: TrialsDataset) {
        let h = dataset.header
        channels = h.nChannels
        if let context = dataset.context, let first = context.onsets.min(), let last = context.onsets.max() {
            let from = max(0, first - Int((Self.lead * h.fs).rounded()))
            let to = min(context.length, last + h.nSamples + Int((Self.tail * h.fs).rounded()))
            var out: [Float] = []
            out.reserveCapacity(h.nChannels * (to - from))
            for c in 0..<h.nChannels { out += context.samples[(c * context.length + from)..<(c * context.length + to)] }
            samples = out
            length = to - from
            trialStarts = context.onsets.map { $0 - from }
        } else {
            (samples, length, trialStarts) = Self.withRests(dataset)
        }
    }

    /// The cut trials back to back with mirrored rests: samples, length, trial starts.
    private static func withRests(_ dataset: TrialsDataset) -> ([Float], Int, [Int]) {
        let h = dataset.header
        let n = h.nSamples, channels = h.nChannels
        let rest = max(2, Int((Self.rest * h.fs).rounded()))
        var rows = [[Float]](repeating: [], count: channels)
        var starts: [Int] = []
        func value(_ trial: Int, _ c: Int, _ s: Int) -> Float {
            dataset.data[(trial * channels + c) * n + min(max(s, 0), n - 1)]
        }
        for t in 0..<h.nTrials {
            let before = t == 0 ? 0 : rest / 2
            for c in 0..<channels {
                for k in 0..<before { rows[c].append(value(t - 1, c, n - 2 - k)) }                 // the previous end, backwards
                for k in 0..<(rest - before) { rows[c].append(value(t, c, rest - before - k)) }   // this start, backwards
            }
            starts.append(rows[0].count)
            for c in 0..<channels { for s in 0..<n { rows[c].append(value(t, c, s)) } }
        }
        for c in 0..<channels { for k in 0..<(rest / 2) { rows[c].append(value(h.nTrials - 1, c, n - 2 - k)) } }
        return (rows.flatMap { $0 }, rows[0].count, starts)
    }

    /// Rows (one per sample, one value per channel) of samples `range`.
    func rows(_ range: Range<Int>) -> [[Float]] {
        range.map { s in (0..<channels).map { samples[$0 * length + s] } }
    }
}
