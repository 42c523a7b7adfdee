import Foundation

extension MarkerTrialCutter {
    /// The markers starting trials inside the recording (indices into its
    /// markers), the number each label's first capture group holds, the
    /// marker it came from, how many matching markers lie before the first
    /// sample or after the last (no label is needed for those), and
    /// warnings on labels that look misplaced.
    ///
    /// A label is the latest matching marker at or before its trial start
    /// (or on the start's own sample); with ``TrialCutOptions/labelAfterStart``
    /// the first one at or after the start, before the next start. Without
    /// it, a label marker that follows its trial start closely (in the first
    /// half of the time to the next start, and within a second) would label the next trial: when
    /// most trials have one, the import is refused and `--label-after`
    /// suggested; when some do, or when two trials share one label marker
    /// (one missing), a warning names them.
    static func trialStarts(_ recording: ContinuousRecording, options: TrialCutOptions) throws
        -> (markers: [Int], numbers: [Int], labelMarkers: [RecordingMarker], before: Int, after: Int, labelWarnings: [String]) {
        let start: Regex<AnyRegexOutput>, label: Regex<AnyRegexOutput>
        do { start = try Regex(options.trialStart) } catch { throw LabFormatError("--trial-start", "not a regular expression: \(options.trialStart)") }
        do { label = try Regex(options.label) } catch { throw LabFormatError("--label", "not a regular expression: \(options.label)") }
        let markers = recording.markers
        let matching = markers.indices.filter { markers[$0].text.firstMatch(of: start) != nil }
        guard !matching.isEmpty else {
            let seen = Array(Set(markers.map(\.text))).sorted().prefix(5).joined(separator: "\", \"")
            throw LabFormatError("--trial-start", "no marker matches \(options.trialStart)" + (seen.isEmpty ? " (the recording has no markers)" : " (markers seen: \"\(seen)\"…)"))
        }
        let n = recording.sampleCount
        let starts = matching.filter { (0..<n).contains(markers[$0].sample) }
        guard !starts.isEmpty else {
            let seconds = matching.map { markers[$0].seconds }
            throw LabFormatError("--trial-start", "no matching marker lies inside the recording (0 to \(format(Double(n) / recording.sampleRate)) s): they lie at \(format(seconds.min()!)) to \(format(seconds.max()!)) s")
        }
        let isLabel = markers.map { $0.text.firstMatch(of: label) != nil }
        var numbers: [Int] = [], labelIndices: [Int] = []
        for (t, s) in starts.enumerated() {
            let marker = markers[s]
            // The start's own sample: a program writes label and start together, in either order.
            let sameSampleEnd = s + markers[s...].prefix { $0.sample == marker.sample }.count
            let sameSampleStart = s - markers[..<s].reversed().prefix { $0.sample == marker.sample }.count
            let found: Int?
            if options.labelAfterStart {
                let next = t + 1 < starts.count ? starts[t + 1] : markers.count
                found = (sameSampleStart..<max(next, sameSampleEnd)).first { isLabel[$0] }
            } else {
                found = markers.indices[..<sameSampleEnd].last { isLabel[$0] }
            }
            guard let index = found else {
                if options.labelAfterStart {
                    throw LabFormatError("--label", "no marker from the trial start at \(format(marker.seconds)) s to the next start matches \(options.label)")
                }
                let later = markers[s...].first { $0.text.firstMatch(of: label) != nil }
                throw LabFormatError("--label", "no marker at or before the trial start at \(format(marker.seconds)) s matches \(options.label)"
                                     + (later.map { " (the next that does, \"\($0.text)\", is \(format($0.seconds - marker.seconds)) s after it: --label-after takes the label that follows each start)" } ?? ""))
            }
            let labelled = markers[index]
            guard let match = labelled.text.firstMatch(of: label), match.output.count > 1 else {
                throw LabFormatError("--label", "\(options.label) has no first capture group (in \"\(labelled.text)\")")
            }
            guard let group = match.output[1].substring else {
                throw LabFormatError("--label", "the first capture group of \(options.label) takes no part in matching \"\(labelled.text)\"")
            }
            guard let k = Int(group) else {
                throw LabFormatError("--label", "the first capture group of \(options.label) holds \"\(group)\" in \"\(labelled.text)\", not a class number")
            }
            numbers.append(k)
            labelIndices.append(index)
        }
        let warnings = options.labelAfterStart ? sharedLabelWarnings(starts, labelIndices, markers)
            : try labelPlacementWarnings(starts, labelIndices, isLabel: isLabel, markers)
        let before = matching.filter { markers[$0].sample < 0 }.count
        return (starts, numbers, labelIndices.map { markers[$0] }, before, matching.count - starts.count - before, warnings)
    }

    /// Refuses labels that follow their starts on most trials; warns where
    /// some do, and where two trials share one label marker.
    private static func labelPlacementWarnings(_ starts: [Int], _ labels: [Int], isLabel: [Bool],
                                               _ markers: [RecordingMarker]) throws -> [String] {
        let gaps = zip(starts.dropFirst(), starts).map { markers[$0].seconds - markers[$1].seconds }.sorted()
        let typical = gaps.isEmpty ? Double.infinity : gaps[gaps.count / 2]
        var following: [(trial: Int, marker: RecordingMarker)] = []
        for (t, s) in starts.enumerated() {
            let next = t + 1 < starts.count ? starts[t + 1] : markers.count
            let span = t + 1 < starts.count ? markers[next].seconds - markers[s].seconds : typical
            // After the start's own sample, before the next start, within a second and the first half of the way there.
            guard let first = (s..<next).first(where: { isLabel[$0] && markers[$0].sample > markers[s].sample }),
                  markers[first].seconds - markers[s].seconds < min(span / 2, 1) else { continue }
            following.append((t, markers[first]))
        }
        let trials = starts.count
        if let first = following.first, following.count * 2 > trials {
            throw LabFormatError("--label", "the label markers follow their trial starts on \(following.count) of \(trials) trials (the first, \"\(first.marker.text)\", \(format(first.marker.seconds - markers[starts[first.trial]].seconds)) s after the start at \(format(markers[starts[first.trial]].seconds)) s): each would take the label of the trial before; --label-after takes the label that follows each start")
        }
        var warnings = sharedLabelWarnings(starts, labels, markers)
        if !following.isEmpty {
            let named = following.prefix(4).map { "\($0.trial + 1) (\"\($0.marker.text)\" \(format($0.marker.seconds - markers[starts[$0.trial]].seconds)) s after its start)" }
            warnings.append("label markers follow the start of trial\(following.count == 1 ? "" : "s") \(named.joined(separator: ", "))\(following.count > 4 ? ", …" : ""): a trial takes the label at or before its start; is each the trial's own?")
        }
        return warnings
    }

    /// A warning naming the trials that take the same label marker as the trial before.
    private static func sharedLabelWarnings(_ starts: [Int], _ labels: [Int], _ markers: [RecordingMarker]) -> [String] {
        let shared = labels.indices.dropFirst().filter { labels[$0] == labels[$0 - 1] }
        guard !shared.isEmpty else { return [] }
        let named = shared.prefix(4).map { "\($0 + 1) (at \(format(markers[starts[$0]].seconds)) s)" }
        return ["trial\(shared.count == 1 ? "" : "s") \(named.joined(separator: ", "))\(shared.count > 4 ? ", …" : "") take\(shared.count == 1 ? "s" : "") the label marker of the trial before (\"\(markers[labels[shared[0]]].text)\" at \(format(markers[labels[shared[0]]].seconds)) s): no label marker lies between their starts; is one missing?"]
    }
}
