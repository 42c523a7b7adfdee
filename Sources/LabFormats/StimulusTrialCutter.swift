import Decoding

/// Cuts a ``ContinuousRecording`` into a trials dataset by its markers,
/// taking each class's stimulus from a ``BIDSStimulus`` (the per-sample
/// object states `noisetag recordings export` writes) instead of codes.
///
/// - Trials start at the markers matching ``TrialCutOptions/trialStart``;
///   the first capture group of the latest marker matching
///   ``TrialCutOptions/label`` at or before the start is the cued *object ID*
///   K, whose states are column `obj_K`.
/// - Trial length: `--trial-seconds`, else the shortest start to
///   `--trial-end`, else the shortest duration of the trial-start markers
///   (the exported `target=K` events last as long as the decoder's trial),
///   else the shortest gap between starts.
/// - Classes are the distinct state sequences the trials showed, as the
///   decoder's own calibration dataset builds them: trial by trial, column
///   by column (`obj_0`, the target's mirror, left out, and a column that
///   does not change within the trial, an object not shown, left out), a
///   sequence differing from a known class in at most 10 % of its samples is
///   that class, else a new one. When every trial shows the same codes from
///   its start, the classes are the columns in order. The label is the class
///   of column `obj_K`'s sequence in that trial.
///
/// ```swift
/// let recording = try BIDSImporter.read(url)
/// let stimulus = try BIDSImporter.stimulus(url)!
/// let options = TrialCutOptions(trialStart: #"^target=\d+$"#, label: #"^target=(\d+)$"#, codes: [])
/// let (dataset, warnings) = try StimulusTrialCutter.cut(recording, stimulus: stimulus, options: options)
/// ```
public enum StimulusTrialCutter {
    /// The dataset and the warnings (the recording's, then the cut's), or an
    /// ``LabFormatError`` naming what is missing or wrong.
    public static func cut(_ recording: ContinuousRecording, stimulus: BIDSStimulus,
                           options: TrialCutOptions) throws -> (dataset: TrialsDataset, warnings: [String]) {
        let fs = recording.sampleRate
        guard fs.isFinite, fs > 0 else { throw LabFormatError(recording.source, "sample rate \(fs) is not positive") }
        guard abs(stimulus.sampleRate - fs) <= 1e-6 * fs else {
            throw LabFormatError("stimulus file", "SamplingFrequency \(RateText.format(stimulus.sampleRate)) Hz differs from the EEG's \(RateText.format(fs)) Hz")
        }
        let n = recording.sampleCount
        guard n > 0, !recording.samples.isEmpty else { throw LabFormatError(recording.source, "no samples") }
        let offset = Int((stimulus.startTime * fs).rounded())
        var column: [Int: Int] = [:]
        for (index, name) in stimulus.columns.enumerated() { if let id = BIDSStimulus.objectID(name) { column[id] = index } }

        let found = try MarkerTrialCutter.trialStarts(recording, options: options)
        let starts = found.markers
        var targets: [Int] = []
        for (k, labelled) in zip(found.numbers, found.labelMarkers) {
            guard let index = column[k] else {
                throw LabFormatError("--label", "object \(k) in \"\(labelled.text)\" at \(MarkerTrialCutter.format(labelled.seconds)) s has no column obj_\(k) in the stimulus file (\(stimulus.columns.prefix(6).joined(separator: ", "))\(stimulus.columns.count > 6 ? ", …" : ""))")
            }
            targets.append(index)
        }
        let durations = starts.map { recording.markers[$0].duration ?? 0 }
        let fallback = durations.allSatisfy { $0 > 0 } ? durations.map { Int(($0 * fs).rounded()) }.min() : nil
        let (samples, lengthWarning) = try MarkerTrialCutter.trialLength(recording, starts: starts, options: options, fallback: fallback)
        let onsets = starts.map { recording.markers[$0].sample }
        let end = min(n, offset + stimulus.rowCount)
        let fitting = try MarkerTrialCutter.fittingTrials(onsets, samples: samples, end: end, fs: fs, subject: recording.source,
                                                          in: "the recording and its stimulus file")

        func window(_ c: Int, _ onset: Int) -> [UInt8] {
            (onset..<(onset + samples)).map { s in
                let row = s - offset
                return row >= 0 && row < stimulus.rowCount ? stimulus.states[c][row] : 0
            }
        }
        let classColumns = stimulus.columns.indices.filter { BIDSStimulus.objectID(stimulus.columns[$0]) != 0 }
        var rows: [[UInt8]] = []
        func classOf(_ row: [UInt8]) -> Int {
            if let index = SampledCode.firstMatch(of: row, in: rows) { return index }
            rows.append(row)
            return rows.count - 1
        }
        let (kept, gapWarning) = try MarkerTrialCutter.avoidingGaps(fitting, onsets: onsets, samples: samples, recording: recording)
        var labels: [Int32] = []
        for t in kept {
            for c in classColumns {
                let row = window(c, onsets[t])
                if let first = row.first, row.contains(where: { $0 != first }) { _ = classOf(row) }
            }
            labels.append(Int32(classOf(window(targets[t], onsets[t]))))
        }
        var header = DatasetHeader(fs: fs, nTrials: kept.count, nChannels: recording.samples.count, nSamples: samples,
                                   nClasses: rows.count, channels: recording.channelNames, filtered: recording.filtered,
                                   source: recording.source + ", stimulus from its stimulus file"
                                       + MarkerTrialCutter.leftOutNote(before: found.before, past: onsets.count - fitting.count, after: found.after))
        if !recording.deadChannels.isEmpty { header.deadChannels = recording.deadChannels }
        do {
            let dataset = try TrialsDataset(header: header, continuous: recording.samples.flatMap { $0 }, length: n,
                                            onsets: kept.map { onsets[$0] }, labels: labels, stimulus: rows.flatMap { $0 })
            let leftOut = MarkerTrialCutter.leftOutWarning(past: onsets.count - fitting.count, after: found.after, kept: fitting.count)
            let startTexts = MarkerTrialCutter.startTextsWarning(recording, starts: found.markers, options: options)
            return (dataset, recording.warnings + [startTexts].compactMap { $0 } + found.labelWarnings
                    + [lengthWarning, leftOut, gapWarning].compactMap { $0 })
        } catch let error as DatasetError {
            throw LabFormatError(recording.source, error.description)
        }
    }
}
