import Decoding
import Foundation

/// Cuts a ``ContinuousRecording`` into a trials dataset by its markers: a
/// trial starts at each marker matching ``TrialCutOptions/trialStart``; its
/// class is the first capture group of the latest marker at or before that
/// start matching ``TrialCutOptions/label``; every class's stimulus is its
/// code at ``TrialCutOptions/codeRate`` bits per second from the trial's
/// start, repeated. The dataset keeps the whole recording as its continuous
/// context, so preprocessing runs on the continuous signal.
///
/// ```swift
/// let recording = try XDFImporter.read(url)
/// let options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: codes, classes: 53)
/// let dataset = try MarkerTrialCutter.cut(recording, options: options)
/// ```
public enum MarkerTrialCutter {
    /// The dataset, or an ``LabFormatError`` naming what is missing or wrong.
    public static func cut(_ recording: ContinuousRecording, options: TrialCutOptions) throws -> TrialsDataset {
        do { _ = try Regex(options.trialStart) } catch { throw LabFormatError("--trial-start", "not a regular expression: \(options.trialStart)") }
        do { _ = try Regex(options.label) } catch { throw LabFormatError("--label", "not a regular expression: \(options.label)") }
        guard options.codeRate.isFinite, options.codeRate > 0 else { throw LabFormatError("--code-rate", "must be a positive number of bits per second, got \(options.codeRate)") }
        guard !options.codes.isEmpty else { throw LabFormatError("codes", "no codes") }
        let bits = options.codes[0].count
        guard bits > 0, options.codes.allSatisfy({ $0.count == bits }) else { throw LabFormatError("codes", "the codes differ in length or are empty") }
        guard options.codes.allSatisfy({ $0.allSatisfy { $0 <= 1 } }) else { throw LabFormatError("codes", "a code holds a value other than 0 and 1") }
        var codes = options.codes
        if let classes = options.classes {
            guard classes >= 2, classes <= codes.count else { throw LabFormatError("--classes", "must be 2 to \(codes.count) (the codes given), got \(classes)") }
            codes = Array(codes.prefix(classes))
        }
        let fs = recording.sampleRate
        guard fs.isFinite, fs > 0 else { throw LabFormatError(recording.source, "sample rate \(fs) is not positive") }
        let n = recording.sampleCount
        guard n > 0, !recording.samples.isEmpty else { throw LabFormatError(recording.source, "no samples") }

        let found = try trialStarts(recording, options: options)
        let starts = found.markers
        var labels: [Int32] = []
        for (k, labelled) in zip(found.numbers, found.labelMarkers) {
            guard k >= 0, k < codes.count else {
                throw LabFormatError("--label", "class \(k) in \"\(labelled.text)\" at \(format(labelled.seconds)) s is outside the \(codes.count) codes")
            }
            labels.append(Int32(k))
        }
        let onsets = starts.map { recording.markers[$0].sample }
        let samples = try trialLength(recording, starts: starts, options: options)
        let fitting = onsets.indices.filter { onsets[$0] >= 0 && onsets[$0] + samples <= n }
        guard samples > 0, !fitting.isEmpty else {
            throw LabFormatError(recording.source, "no trial of \(format(Double(max(samples, 0)) / fs)) s fits in the recording")
        }
        guard Set(fitting.map { labels[$0] }).count >= 1 else { throw LabFormatError("--label", "no labelled trial") }
        let stimulus = codes.flatMap { code in
            (0..<samples).map { i in code[Int((Double(i) / fs * options.codeRate).rounded(.down)) % bits] }
        }
        var header = DatasetHeader(fs: fs, nTrials: fitting.count, nChannels: recording.samples.count, nSamples: samples,
                                   nClasses: codes.count, channels: recording.channelNames, filtered: recording.filtered,
                                   source: recording.source)
        if fitting.count < onsets.count { header.source = recording.source + " (\(onsets.count - fitting.count) trial(s) past the recording's end left out)" }
        do {
            return try TrialsDataset(header: header, continuous: recording.samples.flatMap { $0 }, length: n,
                                     onsets: fitting.map { onsets[$0] }, labels: fitting.map { labels[$0] }, stimulus: stimulus)
        } catch let error as DatasetError {
            throw LabFormatError(recording.source, error.description)
        }
    }

    /// The markers starting trials (indices into the recording's markers),
    /// the number each label's first capture group holds, and the marker it came from.
    static func trialStarts(_ recording: ContinuousRecording, options: TrialCutOptions) throws
        -> (markers: [Int], numbers: [Int], labelMarkers: [RecordingMarker]) {
        let start: Regex<AnyRegexOutput>, label: Regex<AnyRegexOutput>
        do { start = try Regex(options.trialStart) } catch { throw LabFormatError("--trial-start", "not a regular expression: \(options.trialStart)") }
        do { label = try Regex(options.label) } catch { throw LabFormatError("--label", "not a regular expression: \(options.label)") }
        let starts = recording.markers.indices.filter { recording.markers[$0].text.firstMatch(of: start) != nil }
        guard !starts.isEmpty else {
            let seen = Array(Set(recording.markers.map(\.text))).sorted().prefix(5).joined(separator: "\", \"")
            throw LabFormatError("--trial-start", "no marker matches \(options.trialStart)" + (seen.isEmpty ? " (the recording has no markers)" : " (markers seen: \"\(seen)\"…)"))
        }
        var numbers: [Int] = []
        var labelMarkers: [RecordingMarker] = []
        for s in starts {
            let marker = recording.markers[s]
            guard let labelled = recording.markers[...s].last(where: { $0.text.firstMatch(of: label) != nil }),
                  let match = labelled.text.firstMatch(of: label) else {
                throw LabFormatError("--label", "no marker at or before the trial start at \(format(marker.seconds)) s matches \(options.label)")
            }
            guard match.output.count > 1, let group = match.output[1].substring, let k = Int(group) else {
                throw LabFormatError("--label", "\(options.label) has no first capture group holding a class number in \"\(labelled.text)\"")
            }
            numbers.append(k)
            labelMarkers.append(labelled)
        }
        return (starts, numbers, labelMarkers)
    }

    /// Samples per trial: `--trial-seconds`, else the shortest start to
    /// `--trial-end`, else `fallback` when given, else the shortest gap
    /// between trial starts capped at the recording's end.
    static func trialLength(_ recording: ContinuousRecording, starts: [Int], options: TrialCutOptions, fallback: Int? = nil) throws -> Int {
        let fs = recording.sampleRate
        let onsets = starts.map { recording.markers[$0].sample }
        if let seconds = options.trialSeconds {
            guard seconds.isFinite, seconds > 0 else { throw LabFormatError("--trial-seconds", "must be positive, got \(seconds)") }
            return Int((seconds * fs).rounded())
        } else if let trialEnd = options.trialEnd {
            let end: Regex<AnyRegexOutput>
            do { end = try Regex(trialEnd) } catch { throw LabFormatError("--trial-end", "not a regular expression: \(trialEnd)") }
            let spans = starts.compactMap { s in
                recording.markers[(s + 1)...].first { $0.text.firstMatch(of: end) != nil }.map { $0.sample - recording.markers[s].sample }
            }
            guard let shortest = spans.filter({ $0 > 0 }).min() else {
                throw LabFormatError("--trial-end", "no marker after a trial start matches \(trialEnd)")
            }
            return shortest
        } else if let fallback {
            return fallback
        } else {
            let gaps = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
            return min(gaps.min() ?? Int.max, recording.sampleCount - (onsets.last ?? 0))
        }
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
