import Decoding
import UtopiaProtocol

/// What a ``RecordingPlayback`` does besides streaming EEG, on the
/// recording's timeline (milliseconds from the streamed sample 0), in the
/// order an engine would: calibration mode, each trial's NEWTARGET (half a
/// second before its first frame, or at the previous trial's end when the
/// gap is shorter) and one STIMULUSEVENT per screen frame from the trial's
/// sample 0, prediction mode when calibration ends, idle at the end; and
/// the points where it waits for the decoder: for its fit before the first
/// prediction trial, and for its prediction on a whole trial at the end of
/// each prediction trial.
struct PlaybackScript: Sendable {
    /// One step of the script.
    enum Cue: Sendable, Equatable {
        case mode(String)
        case newTarget(trial: Int)
        case frame(trial: Int, frame: Int)
        /// Wait for the decoder's CERTAINTYTHRESHOLD (its fit).
        case awaitFit
        /// Wait for the decoder's prediction on the whole of a prediction trial.
        case settle(trial: Int)
        /// The end: stop streaming.
        case end
    }

    /// A trial's place on the timeline.
    struct Trial: Sendable {
        /// The dataset's trial index.
        let index: Int
        /// Calibration (cued) or prediction.
        let calibrating: Bool
        /// Milliseconds of each frame.
        let frames: [Double]
        /// For each frame, the sample of `V` whose states it shows.
        let frameSamples: [Int]
    }

    /// The cues, sorted by time (ties in the order made).
    let cues: [(time: Double, cue: Cue)]
    /// The trials in the order played (by onset).
    let trials: [Trial]

    /// The script for trials starting at `starts` (streamed samples, dataset order) of
    /// `trialSamples` samples at `fs`, the first `calibrating` in time calibrating,
    /// ending by `streamEnd` (ms).
    init(starts: [Int], trialSamples: Int, fs: Double, frameRate: Double, calibrating: Int, streamEnd: Double) {
        let period = 1000 / fs, frame = 1000 / frameRate
        let order = starts.indices.sorted { starts[$0] < starts[$1] }
        let trialLength = Double(trialSamples) * period
        var made: [Trial] = []
        var list: [(Double, Cue)] = [(0, .mode(DecoderMode.calibration.modeText))]
        var previousEnd = 0.0
        for (k, index) in order.enumerated() {
            let start = Double(starts[index]) * period
            let next = k + 1 < order.count ? Double(starts[order[k + 1]]) * period - 1 : .infinity
            var frames: [Double] = []
            var samples: [Int] = []
            var f = 0
            while Double(f) * frame < trialLength - 1e-6, start + Double(f + 1) * frame <= next || f == 0 {
                frames.append(start + Double(f) * frame)
                samples.append(min(trialSamples - 1, Int((Double(f) * fs / frameRate - 1e-9).rounded(.up))))
                f += 1
            }
            let trial = Trial(index: index, calibrating: k < calibrating, frames: frames, frameSamples: samples)
            let newTarget = max(start - 500, previousEnd, 0)
            if k == calibrating {
                list.append((previousEnd, .mode(DecoderMode.prediction.modeText)))
                list.append((max(newTarget, previousEnd), .awaitFit))
            }
            list.append((newTarget, .newTarget(trial: k)))
            for (i, time) in frames.enumerated() { list.append((time, .frame(trial: k, frame: i))) }
            previousEnd = (frames.last ?? start) + frame
            if !trial.calibrating { list.append((previousEnd, .settle(trial: k))) }
            made.append(trial)
        }
        list.append((previousEnd, .mode("idle")))
        list.append((max(previousEnd, min(streamEnd, previousEnd + 500)), .end))
        cues = list.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map { (time: $0.element.0, cue: $0.element.1) }
        trials = made
    }
}
