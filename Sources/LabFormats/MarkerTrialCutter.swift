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
/// let (dataset, warnings) = try MarkerTrialCutter.cut(recording, options: options)
/// ```
public enum MarkerTrialCutter {
    /// The dataset and the warnings (the recording's, then what the cut
    /// noticed), or an ``LabFormatError`` naming what is missing or wrong.
    public static func cut(_ recording: ContinuousRecording, options: TrialCutOptions) throws -> (dataset: TrialsDataset, warnings: [String]) {
        do { _ = try Regex(options.trialStart) } catch { throw LabFormatError("--trial-start", "not a regular expression: \(options.trialStart)") }
        do { _ = try Regex(options.label) } catch { throw LabFormatError("--label", "not a regular expression: \(options.label)") }
        guard options.codeRate.isFinite, options.codeRate > 0 else { throw LabFormatError("--code-rate", "must be a positive number of bits per second, got \(options.codeRate)") }
        guard !options.codes.isEmpty else { throw LabFormatError("codes", "no codes") }
        let bits = options.codes[0].count
        guard bits > 0, options.codes.allSatisfy({ $0.count == bits }) else { throw LabFormatError("codes", "the codes differ in length or are empty") }
        guard options.codes.allSatisfy({ $0.allSatisfy { $0 <= 1 } }) else { throw LabFormatError("codes", "a code holds a value other than 0 and 1") }
        var warnings = recording.warnings
        var codes = options.codes
        if let warning = CodesFile.orientationWarning(codes) { warnings.append(warning) }
        if let classes = options.classes {
            guard classes >= 2, classes <= codes.count else { throw LabFormatError("--classes", "must be 2 to \(codes.count) (the codes given), got \(classes)") }
            codes = Array(codes.prefix(classes))
        }
        let fs = recording.sampleRate
        guard fs.isFinite, fs > 0 else { throw LabFormatError(recording.source, "sample rate \(fs) is not positive") }
        guard options.codeRate <= fs else {
            throw LabFormatError("--code-rate", "\(options.codeRate) bits per second is above the sample rate, \(RateText.format(fs)) Hz: a bit would last less than a sample")
        }
        let n = recording.sampleCount
        guard n > 0, !recording.samples.isEmpty else { throw LabFormatError(recording.source, "no samples") }

        let found = try trialStarts(recording, options: options)
        let starts = found.markers
        if let warning = startTextsWarning(recording, starts: starts, options: options) { warnings.append(warning) }
        warnings += found.labelWarnings
        var labels: [Int32] = []
        for (k, labelled) in zip(found.numbers, found.labelMarkers) {
            guard k >= 0, k < codes.count else {
                throw LabFormatError("--label", "class \(k) in \"\(labelled.text)\" at \(format(labelled.seconds)) s is outside the \(codes.count) codes")
            }
            labels.append(Int32(k))
        }
        let onsets = starts.map { recording.markers[$0].sample }
        let (samples, lengthWarning) = try trialLength(recording, starts: starts, options: options)
        warnings += lengthWarning.map { [$0] } ?? []
        let fitting = try fittingTrials(onsets, samples: samples, end: n, fs: fs, subject: recording.source, in: "the recording")
        let stimulus = codes.flatMap { code in
            (0..<samples).map { i in code[Int((Double(i) / fs * options.codeRate).rounded(.down)) % bits] }
        }
        guard codes.indices.contains(where: { c in Set(stimulus[(c * samples)..<((c + 1) * samples)]).count > 1 }) else {
            throw LabFormatError("--code-rate", "at \(options.codeRate) bits per second no code changes within a trial of \(format(Double(samples) / fs)) s")
        }
        if Double(samples) < fs / 2 {
            warnings.append("trials of \(format(Double(samples) / fs)) s, shorter than half a second: does --trial-start match only the trial starts?")
        }
        let past = onsets.count - fitting.count
        if let warning = leftOutWarning(past: past, after: found.after, kept: fitting.count) { warnings.append(warning) }
        let (unbroken, gapWarning) = try avoidingGaps(fitting, onsets: onsets, samples: samples, recording: recording)
        warnings += gapWarning.map { [$0] } ?? []
        let (kept, skipWarning) = try avoidingSkips(unbroken, onsets: onsets, starts: starts, samples: samples, recording: recording)
        warnings += skipWarning.map { [$0] } ?? []
        var header = DatasetHeader(fs: fs, nTrials: kept.count, nChannels: recording.samples.count, nSamples: samples,
                                   nClasses: codes.count, channels: recording.channelNames, filtered: recording.filtered,
                                   source: recording.source + leftOutNote(before: found.before, past: past, after: found.after))
        if !recording.deadChannels.isEmpty { header.deadChannels = recording.deadChannels }
        do {
            let dataset = try TrialsDataset(header: header, continuous: recording.samples.flatMap { $0 }, length: n,
                                            onsets: kept.map { onsets[$0] }, labels: kept.map { labels[$0] }, stimulus: stimulus)
            return (dataset, warnings)
        } catch let error as DatasetError {
            throw LabFormatError(recording.source, error.description)
        }
    }

    /// A warning when `--trial-start` matches markers of two or more texts
    /// that carry no label (`stop_trial` beside `start_trial` for
    /// "trial"): such a pattern most likely also matches trial ends.
    static func startTextsWarning(_ recording: ContinuousRecording, starts: [Int], options: TrialCutOptions) -> String? {
        guard let label = try? Regex(options.label) else { return nil }
        var counts: [String: Int] = [:]
        for s in starts { counts[recording.markers[s].text, default: 0] += 1 }
        let unlabelled = counts.keys.filter { $0.firstMatch(of: label) == nil }.sorted()
        guard unlabelled.count > 1 else { return nil }
        let listed = unlabelled.prefix(4).map { "\"\($0)\" (\(counts[$0]!))" }.joined(separator: ", ")
        return "--trial-start \(options.trialStart) matches \(unlabelled.count) different marker texts: \(listed)\(unlabelled.count > 4 ? ", …" : ""): is each a trial start?"
    }

    /// Samples per trial: `--trial-seconds`, else the shortest start to
    /// `--trial-end`, else `fallback` when given, else the shortest gap
    /// between the trial starts (all inside the recording; none across a
    /// skip), capped at its end when that leaves 80 % of the gap (else the
    /// last trial is left out);
    /// with a warning when that cap decides the length, or when the
    /// trial-start markers last more than half the gap but less than it (their
    /// durations may be the trials').
    static func trialLength(_ recording: ContinuousRecording, starts: [Int], options: TrialCutOptions,
                            fallback: Int? = nil) throws -> (samples: Int, warning: String?) {
        let fs = recording.sampleRate
        if let seconds = options.trialSeconds {
            guard seconds.isFinite, seconds > 0 else { throw LabFormatError("--trial-seconds", "must be positive, got \(seconds)") }
            // Longer than the recording: no trial fits (and the sample count may be past Int).
            guard seconds * fs <= Double(recording.sampleCount) else {
                throw LabFormatError("--trial-seconds", "\(seconds) s is longer than the whole recording (\(format(Double(recording.sampleCount) / fs)) s): no trial fits")
            }
            let samples = Int((seconds * fs).rounded())
            guard samples > 0 else { throw LabFormatError("--trial-seconds", "\(seconds) s is shorter than a sample at \(RateText.format(fs)) Hz") }
            return (samples, nil)
        } else if let trialEnd = options.trialEnd {
            let end: Regex<AnyRegexOutput>
            do { end = try Regex(trialEnd) } catch { throw LabFormatError("--trial-end", "not a regular expression: \(trialEnd)") }
            let spans = starts.compactMap { s -> Int? in
                guard !recording.markers[s].inSkip,
                      let stop = recording.markers[(s + 1)...].first(where: { $0.text.firstMatch(of: end) != nil }),
                      !crossesSkip(recording, from: recording.markers[s].sample, to: stop.sample) else { return nil }
                return stop.sample - recording.markers[s].sample
            }
            guard let shortest = spans.filter({ $0 > 0 }).min() else {
                throw LabFormatError("--trial-end", "no marker after a trial start matches \(trialEnd)")
            }
            return (shortest, nil)
        } else if let fallback {
            return (fallback, nil)
        }
        let inside = starts.map { recording.markers[$0].sample }.sorted()
        guard let last = inside.last else { throw LabFormatError("--trial-start", "no trial start") }
        if let twin = zip(inside.dropFirst(), inside).first(where: { $0 == $1 }) {
            throw LabFormatError("--trial-start", "two matching markers at \(format(Double(twin.0) / fs)) s start two trials at the same sample")
        }
        let room = recording.sampleCount - last
        // Starts a skip lies between are closer in samples than in time: their distance says nothing.
        let clean = starts.filter { !recording.markers[$0].inSkip }.map { recording.markers[$0].sample }.sorted()
        guard let gap = zip(clean.dropFirst(), clean).filter({ !crossesSkip(recording, from: $1, to: $0) }).map({ $0 - $1 }).min()
                ?? zip(inside.dropFirst(), inside).map({ $0 - $1 }).min() else { return (room, nil) }
        if Double(room) < 0.8 * Double(gap) {
            // A recording that ends early in its last trial (a crash): that trial is left out rather than every trial cut short.
            return (gap, "trials of \(format(Double(gap) / fs)) s, the shortest gap between trial starts; the recording ends \(format(Double(room) / fs)) s after the last start, so that trial is left out (--trial-seconds \(format(Double(room) / fs)) keeps it and cuts every trial to that)")
        }
        if room < gap {
            return (room, "every trial cut to \(format(Double(room) / fs)) s: the recording ends that soon after the last trial start, sooner than the shortest gap between starts (\(format(Double(gap) / fs)) s); --trial-seconds or --trial-end sets the length, and a trial that does not fit is left out")
        }
        let durations = starts.map { recording.markers[$0].duration ?? 0 }
        if let shortest = durations.min(), shortest * fs >= Double(gap) / 2, Int((shortest * fs).rounded()) < gap {
            return (gap, "trials of \(format(Double(gap) / fs)) s, the shortest gap between starts, but the trial-start markers last \(format(shortest)) s (the shortest): --trial-seconds \(format(shortest)) cuts the trials to them")
        }
        return (gap, "trials of \(format(Double(gap) / fs)) s, the shortest gap between trial starts: with a pause between trials, --trial-end or --trial-seconds cuts them to the stimulation")
    }

    /// The indices of the trials (starting inside the recording) that end by
    /// sample `end`, or an ``LabFormatError`` when none does.
    static func fittingTrials(_ onsets: [Int], samples: Int, end: Int, fs: Double, subject: String, in what: String) throws -> [Int] {
        let fitting = onsets.indices.filter { onsets[$0] + samples <= end }
        guard fitting.isEmpty else { return fitting }
        throw LabFormatError(subject, "no trial of \(format(Double(samples) / fs)) s fits in \(what) (\(format(Double(end) / fs)) s long): the trials start at \(format(Double(onsets.min()!) / fs)) to \(format(Double(onsets.max()!) / fs)) s")
    }

    /// The note the dataset's `source` carries on the trials left out: those
    /// starting before the recording, those running past its end, those
    /// starting after it; "" for none.
    static func leftOutNote(before: Int, past: Int, after: Int = 0) -> String {
        let parts = (before > 0 ? ["\(before) starting before the recording"] : [])
            + (past > 0 ? ["\(past) running past the recording's end"] : [])
            + (after > 0 ? ["\(after) starting after it"] : [])
        return parts.isEmpty ? "" : " (trials left out: " + parts.joined(separator: ", ") + ")"
    }

    /// A warning when trials run past the recording's end (a file cut
    /// short, a crash, a copy stopped early, loses them) or start after it
    /// (markers of a longer session): the `source` note alone is easy to miss.
    static func leftOutWarning(past: Int, after: Int = 0, kept: Int) -> String? {
        var parts: [String] = []
        if past > 0 { parts.append("\(past) of \(past + after + kept) trials run past the recording's end and are left out: was the file cut short?") }
        if after > 0 {
            parts.append("\(after) trial start\(after == 1 ? "" : "s") after the recording's end left out\(past > 0 ? "" : " (of \(after + kept))"): markers from a longer session, or a file cut short?")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// `fitting` without the trials that overlap one of the recording's
    /// gaps (missing samples filled with straight lines), and a warning
    /// naming them; throws when none is left.
    static func avoidingGaps(_ fitting: [Int], onsets: [Int], samples: Int,
                             recording: ContinuousRecording) throws -> (kept: [Int], warning: String?) {
        try avoidingGaps(fitting, onsets: onsets, samples: samples, gaps: recording.gaps, sampleRate: recording.sampleRate,
                         subject: recording.source)
    }

    /// ``avoidingGaps(_:onsets:samples:recording:)`` for a recording's
    /// `gaps` at `sampleRate`, whose failure names `subject`; `cause` says
    /// where missing samples come from.
    static func avoidingGaps(_ fitting: [Int], onsets: [Int], samples: Int, gaps recorded: [Range<Int>], sampleRate fs: Double,
                             subject: String, cause: String = "NaN in the file") throws -> (kept: [Int], warning: String?) {
        let hit = fitting.filter { t in recorded.contains { $0.overlaps(onsets[t]..<(onsets[t] + samples)) } }
        guard !hit.isEmpty else { return (fitting, nil) }
        let gaps = recorded.map { "\(format(Double($0.lowerBound) / fs)) s for \(format(Double($0.count) / fs)) s" }
        let names = hit.map { "\($0 + 1) (at \(format(Double(onsets[$0]) / fs)) s)" }
        let reason = "samples missing for longer than \(format(SampleRepair.longestRepair)) s (\(cause), at \(gaps.prefix(3).joined(separator: ", "))\(gaps.count > 3 ? ", …" : ""))"
        guard hit.count < fitting.count else {
            throw LabFormatError(subject, "every trial would overlap \(reason): nothing left to decode")
        }
        return (fitting.filter { !hit.contains($0) },
                (hit.count == 1 ? "trial \(names[0]) overlaps " : "trials \(names.joined(separator: ", ")) overlap ") + reason + ": left out")
    }

    /// True when a skip of the time stamps lies after sample `from` and at or before `to`.
    static func crossesSkip(_ recording: ContinuousRecording, from: Int, to: Int) -> Bool {
        recording.skips.contains { $0.sample > from && $0.sample <= to }
    }

    /// `kept` without the trials whose start lies in a skip of the time
    /// stamps or that run over one (the stimulus ran on while no sample
    /// was recorded), and a warning naming them; throws when none is left.
    static func avoidingSkips(_ kept: [Int], onsets: [Int], starts: [Int], samples: Int,
                              recording: ContinuousRecording) throws -> (kept: [Int], warning: String?) {
        let fs = recording.sampleRate
        let hit = kept.filter { t in
            recording.markers[starts[t]].inSkip || crossesSkip(recording, from: onsets[t], to: onsets[t] + samples - 1)
        }
        guard !hit.isEmpty else { return (kept, nil) }
        let skips = recording.skips.map { "\(format(Double($0.sample) / fs)) s for \(format($0.seconds)) s" }
        let names = hit.map { "\($0 + 1) (at \(format(recording.markers[starts[$0]].seconds)) s)" }
        let reason = "a skip in the EEG's time stamps, where no sample was recorded while the stimulus ran on (at \(skips.prefix(3).joined(separator: ", "))\(skips.count > 3 ? ", …" : ""))"
        guard hit.count < kept.count else {
            throw LabFormatError(recording.source, "every trial would start in or run over \(reason): nothing left to decode")
        }
        return (kept.filter { !hit.contains($0) },
                (hit.count == 1 ? "trial \(names[0]) starts in or runs over " : "trials \(names.joined(separator: ", ")) start in or run over ") + reason + ": left out")
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
