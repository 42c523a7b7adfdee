import Decoding
import Testing
@testable import LabFormats

@Suite struct MarkerTrialCutterTests {
    /// Trials from every `start_trial…` marker, labelled by `label=K`, two codes at 60 bits a second.
    static let standard = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]])

    /// Two channels at 100 Hz, 10 s, trials at 1 s and 4 s labelled 1 and 0.
    func recording() -> ContinuousRecording {
        let n = 1000
        let samples: [[Float]] = [(0..<n).map { Float($0) }, (0..<n).map { Float(-$0) }]
        let markers = [
            RecordingMarker(sample: 90, seconds: 0.9, text: "cue;label=1"),
            RecordingMarker(sample: 100, seconds: 1.0, text: "start_trial"),
            RecordingMarker(sample: 400, seconds: 4.0, text: "start_trial;label=0"),
            RecordingMarker(sample: 700, seconds: 7.0, text: "end"),
        ]
        return ContinuousRecording(sampleRate: 100, channelNames: ["Oz", "Pz"], samples: samples, markers: markers, source: "test")
    }

    @Test func trialsStartAtTheirMarkersWithTheLatestLabel() throws {
        let options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], codeRate: 10,
                                      trialSeconds: 2)
        let d = try MarkerTrialCutter.cut(recording(), options: options).dataset
        #expect(d.header.nTrials == 2 && d.header.nSamples == 200 && d.header.nContinuous == 1000)
        #expect(d.labels == [1, 0])
        #expect(d.context?.onsets == [100, 400])
        #expect(d.trial(1)[0][0] == 400 && d.trial(1)[1][5] == -405)
        // Class 0's code 0,1 at 10 bits/s over 100 Hz: 10 samples per bit.
        #expect(Array(d.stimulus(ofClass: 0).prefix(21)) == Array(repeating: 0, count: 10) + Array(repeating: 1, count: 10) + [0])
        #expect(d.header.channels == ["Oz", "Pz"] && d.header.deadChannels == nil)
        // Channels the importer left out as dead are kept in the header, so that a selection naming them says why.
        var r = recording()
        r.deadChannels = ["F8"]
        let withDead = try MarkerTrialCutter.cut(r, options: options).dataset
        #expect(withDead.header.deadChannels == ["F8"])
        #expect(throws: ChannelSelectionError.self) { try withDead.selectingChannels(.keep(["F8"])) }
        #expect(try withDead.selectingChannels(.drop(["F8"])).header.nChannels == 2)
    }

    @Test func aTrialLongerThanTheRecordingIsOneLineNotATrap() {
        // 1e18 s is more samples than an Int holds: it is refused before it is counted.
        for seconds in [11.0, 1e18, 1.79e308] {
            let options = Self.standard.with(trialSeconds: seconds)
            #expect(throws: LabFormatError("--trial-seconds", "\(seconds) s is longer than the whole recording (10.000 s): no trial fits")) {
                try MarkerTrialCutter.cut(recording(), options: options)
            }
        }
    }

    @Test func withoutTrialSecondsTheShortestGapIsTheLength() throws {
        let options = Self.standard
        #expect(try MarkerTrialCutter.cut(recording(), options: options).dataset.header.nSamples == 300)
    }

    @Test func aLastTrialCutShortByTheEndIsSaidNotSilent() throws {
        var r = recording()
        r.markers.append(RecordingMarker(sample: 850, seconds: 8.5, text: "start_trial;label=1"))
        let options = Self.standard
        let (d, warnings) = try MarkerTrialCutter.cut(r, options: options)
        // The recording ends 1.5 s after the last start, half the 3 s between starts (a crash): that trial is left out.
        #expect(d.header.nSamples == 300 && d.header.nTrials == 2)
        #expect(warnings == ["trials of 3.000 s, the shortest gap between trial starts; the recording ends 1.500 s after the last start, so that trial is left out (--trial-seconds 1.500 keeps it and cuts every trial to that)",
                             "1 of 3 trials run past the recording's end and are left out: was the file cut short?"])
        #expect(d.header.source == "test (trials left out: 1 running past the recording's end)")
        // Ending 2.5 s after it, most of a trial: every trial is cut to that, and a warning says so.
        r.markers[r.markers.count - 1] = RecordingMarker(sample: 750, seconds: 7.5, text: "start_trial;label=1")
        let (cut, said) = try MarkerTrialCutter.cut(r, options: options)
        #expect(cut.header.nSamples == 250 && cut.header.nTrials == 3)
        #expect(said == ["every trial cut to 2.500 s: the recording ends that soon after the last trial start, sooner than the shortest gap between starts (3.000 s); --trial-seconds or --trial-end sets the length, and a trial that does not fit is left out"])
        // A start after the recording's end is said as such.
        r.markers.append(RecordingMarker(sample: 5000, seconds: 50, text: "start_trial;label=1"))
        let (_, later) = try MarkerTrialCutter.cut(r, options: options.with(trialSeconds: 2))
        #expect(later == ["1 trial start after the recording's end left out (of 4): markers from a longer session, or a file cut short?"])
    }

    @Test func trialsOverlappingMissingSamplesAreLeftOutAndNamed() throws {
        var r = recording()
        r.gaps = [450..<520]     // 0.7 s of NaN inside the second trial, filled with a straight line
        let options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], codeRate: 10,
                                      trialSeconds: 2)
        let (d, warnings) = try MarkerTrialCutter.cut(r, options: options)
        #expect(d.header.nTrials == 1 && d.labels == [1])
        #expect(warnings == ["trial 2 (at 4.000 s) overlaps samples missing for longer than 0.100 s (NaN in the file, at 4.500 s for 0.700 s): left out"])
        r.gaps = [0..<1000]
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(r, options: options) }
            == "test: every trial would overlap samples missing for longer than 0.100 s (NaN in the file, at 0.000 s for 10.000 s): nothing left to decode")
    }

    @Test func startsOutsideTheRecordingAreNamedForWhereTheyLie() throws {
        var r = recording()
        // No label marker stands before the early start: it is left out, not refused.
        r.markers.insert(RecordingMarker(sample: -50, seconds: -0.5, text: "start_trial"), at: 0)
        r.markers.append(RecordingMarker(sample: 1200, seconds: 12, text: "start_trial"))
        let options = Self.standard
        let (d, warnings) = try MarkerTrialCutter.cut(r, options: options)
        // The length comes from the starts inside the recording only (1 s and 4 s): 3 s.
        #expect(d.header.nSamples == 300 && d.header.nTrials == 2)
        // A start after the EEG ended is what a file cut short looks like: said in a line of its own, not only in source.
        #expect(warnings == ["trials of 3.000 s, the shortest gap between trial starts: with a pause between trials, --trial-end or --trial-seconds cuts them to the stimulation",
                             "1 trial start after the recording's end left out (of 3): markers from a longer session, or a file cut short?"])
        #expect(d.header.source == "test (trials left out: 1 starting before the recording, 1 starting after it)")
        r.markers = r.markers.filter { $0.sample < 0 || $0.sample >= 1000 }
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(r, options: options) }
            == "--trial-start: no matching marker lies inside the recording (0 to 10.000 s): they lie at -0.500 to 12.000 s")
    }

    @Test func aTrialStartPatternThatAlsoMatchesTrialEndsIsPointedOut() throws {
        var r = recording()
        r.markers.insert(RecordingMarker(sample: 300, seconds: 3.0, text: "stop_trial"), at: 2)
        let loose = TrialCutOptions(trialStart: "trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], trialSeconds: 1)
        let (d, warnings) = try MarkerTrialCutter.cut(r, options: loose)
        #expect(d.header.nTrials == 3)
        #expect(warnings == ["--trial-start trial matches 2 different marker texts: \"start_trial\" (1), \"stop_trial\" (1): is each a trial start?",
                             "trial 2 (at 3.000 s) takes the label marker of the trial before (\"cue;label=1\" at 0.900 s): no label marker lies between their starts; is one missing?"])
        // Starts that differ only in the label they carry are no such case.
        let labelled = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], trialSeconds: 1)
        #expect(try MarkerTrialCutter.cut(r, options: labelled).warnings == [])
    }

    @Test func aLabelWrittenOnTheTrialStartsOwnSampleCounts() throws {
        // The label marker comes a fraction of a sample after the start, as a program writes the two together.
        var r = recording()
        r.markers[0] = RecordingMarker(sample: 400, seconds: 3.997, text: "start_trial")
        r.markers.insert(RecordingMarker(sample: 400, seconds: 3.998, text: "label=1"), at: 3)
        r.markers.remove(at: 1)
        r.markers.sort { $0.seconds < $1.seconds }
        let options = TrialCutOptions(trialStart: "^start_trial$", label: "^label=(\\d+)", codes: [[0, 1], [1, 0]], trialSeconds: 1)
        #expect(try MarkerTrialCutter.cut(r, options: options).dataset.labels == [1])
        // One sample later it is no longer the start's, and the message says where it is.
        r.markers[r.markers.firstIndex { $0.text == "label=1" }!] = RecordingMarker(sample: 401, seconds: 4.01, text: "label=1")
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(r, options: options) }
            == "--label: no marker at or before the trial start at 3.997 s matches ^label=(\\d+) (the next that does, \"label=1\", is 0.013 s after it: --label-after takes the label that follows each start)")
    }

    /// Four trials 2 s apart at 100 Hz, each labelled by a marker `offset` seconds after its start (negative: before).
    func labelledTrials(offset: Double, labels: [Int?] = [1, 0, 1, 0]) -> ContinuousRecording {
        var markers: [RecordingMarker] = []
        for (t, label) in labels.enumerated() {
            let start = 1 + 2 * Double(t)
            markers.append(RecordingMarker(sample: Int(start * 100), seconds: start, text: "trial_start"))
            if let label { markers.append(RecordingMarker(sample: Int(((start + offset) * 100).rounded(.up)), seconds: start + offset, text: "label=\(label)")) }
        }
        markers.sort { $0.seconds < $1.seconds }
        return ContinuousRecording(sampleRate: 100, channelNames: ["Oz"], samples: [(0..<1000).map { Float($0 % 7) }], markers: markers, source: "test")
    }

    @Test func aMissingLabelMarkerIsNamedNotTakenInSilence() throws {
        let options = TrialCutOptions(trialStart: "^trial_start$", label: "^label=(\\d+)$", codes: [[0, 1], [1, 0]], codeRate: 10, trialSeconds: 1)
        let (d, warnings) = try MarkerTrialCutter.cut(labelledTrials(offset: -0.2, labels: [1, 0, nil, 0]), options: options)
        #expect(d.labels == [1, 0, 0, 0])
        #expect(warnings == ["trial 3 (at 5.000 s) takes the label marker of the trial before (\"label=0\" at 2.800 s): no label marker lies between their starts; is one missing?"])
        #expect(try MarkerTrialCutter.cut(labelledTrials(offset: -0.2), options: options).warnings == [])
    }

    @Test func labelsThatFollowTheirStartsAreRefusedOrTakenWithLabelAfter() throws {
        var options = TrialCutOptions(trialStart: "^trial_start$", label: "^label=(\\d+)$", codes: [[0, 1], [1, 0]], codeRate: 10, trialSeconds: 1)
        // A label before the first start too: each trial would silently take the label of the trial before.
        var r = labelledTrials(offset: 0.01)
        r.markers.insert(RecordingMarker(sample: 50, seconds: 0.5, text: "label=0"), at: 0)
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(r, options: options) }
            == "--label: the label markers follow their trial starts on 4 of 4 trials (the first, \"label=1\", 0.010 s after the start at 1.000 s): each would take the label of the trial before; --label-after takes the label that follows each start")
        options.labelAfterStart = true
        let (d, warnings) = try MarkerTrialCutter.cut(r, options: options)
        #expect(d.labels == [1, 0, 1, 0] && warnings == [])
        // One label late among labels before their starts: labelled by the trial before, and said.
        options.labelAfterStart = false
        var late = labelledTrials(offset: -0.2)
        late.markers[late.markers.firstIndex { $0.seconds == 4.8 }!] = RecordingMarker(sample: 501, seconds: 5.01, text: "label=1")
        late.markers.sort { $0.seconds < $1.seconds }
        let (shifted, said) = try MarkerTrialCutter.cut(late, options: options)
        #expect(shifted.labels == [1, 0, 0, 0])
        #expect(said.contains { $0.hasPrefix("trial 3 (at 5.000 s) takes the label marker of the trial before") }, "\(said)")
        #expect(said.contains { $0 == "label markers follow the start of trial 3 (\"label=1\" 0.010 s after its start): a trial takes the label at or before its start; is each the trial's own?" }, "\(said)")
    }

    @Test func aCaptureGroupOutsideTheBranchThatMatchedIsSaidSo() {
        let options = TrialCutOptions(trialStart: "^trial_start$", label: "^label=(\\d+)$|^cue(\\d)$", codes: [[0, 1], [1, 0]], codeRate: 10, trialSeconds: 1)
        var r = labelledTrials(offset: -0.2)
        r.markers[0].text = "cue1"
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(r, options: options) }
            == "--label: the first capture group of ^label=(\\d+)$|^cue(\\d)$ takes no part in matching \"cue1\"")
    }

    @Test func markersThatLastNearlyAGapSuggestTheirLength() throws {
        var r = recording()
        r.markers[1].duration = 2.1
        r.markers[2].duration = 2.2
        let options = Self.standard
        let (d, warnings) = try MarkerTrialCutter.cut(r, options: options)
        #expect(d.header.nSamples == 300)
        #expect(warnings == ["trials of 3.000 s, the shortest gap between starts, but the trial-start markers last 2.100 s (the shortest): --trial-seconds 2.100 cuts the trials to them"])
        // A trigger pulse is not a trial: no suggestion of its length, only the word on the gap.
        r.markers[1].duration = 0.008
        #expect(try MarkerTrialCutter.cut(r, options: options).warnings == ["trials of 3.000 s, the shortest gap between trial starts: with a pause between trials, --trial-end or --trial-seconds cuts them to the stimulation"])
    }

    @Test func codesThatLookTransposedOrTooFastAreCaught() throws {
        let transposed: [[UInt8]] = (0..<5).map { k in [UInt8(k % 2), 1] }
        let options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: transposed)
        #expect(try MarkerTrialCutter.cut(recording(), options: options).warnings
            == ["the codes hold 5 classes of 2 bits each (rows are classes): if the file holds bits × classes, save its transpose", "trials of 3.000 s, the shortest gap between trial starts: with a pause between trials, --trial-end or --trial-seconds cuts them to the stimulation"])
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(recording(), options: TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], codeRate: 1000)) }
            == "--code-rate: 1000.0 bits per second is above the sample rate, 100 Hz: a bit would last less than a sample")
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(recording(), options: TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], trialSeconds: 1e-9)) }
            == "--trial-seconds: 1e-09 s is shorter than a sample at 100 Hz")
        #expect(LabFixtures.message { _ = try MarkerTrialCutter.cut(recording(), options: TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], codeRate: 0.01)) }
            == "--code-rate: at 0.01 bits per second no code changes within a trial of 3.000 s")
        #expect(try MarkerTrialCutter.cut(recording(), options: TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], codeRate: 50, trialSeconds: 0.2)).warnings
            == ["trials of 0.200 s, shorter than half a second: does --trial-start match only the trial starts?"])
    }

    @Test func trialEndMarkersGiveTheShortestSpan() throws {
        var options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]])
        options.trialEnd = "^end$"
        // From each start to the first end marker after it: 700 − 100 and 700 − 400.
        #expect(try MarkerTrialCutter.cut(recording(), options: options).dataset.header.nSamples == 300)
        options.trialEnd = "^never$"
        #expect(throws: LabFormatError("--trial-end", "no marker after a trial start matches ^never$")) {
            try MarkerTrialCutter.cut(recording(), options: options)
        }
    }

    @Test func badOptionsGetOneLineNamingTheOption() {
        func error(_ options: TrialCutOptions) -> String {
            do { _ = try MarkerTrialCutter.cut(recording(), options: options); return "no error" } catch { return "\(error)" }
        }
        let codes: [[UInt8]] = [[0, 1], [1, 0]]
        #expect(error(.init(trialStart: "nothing", label: "label=(\\d+)", codes: codes)).hasPrefix("--trial-start: no marker matches nothing"))
        #expect(error(.init(trialStart: "^start", label: "label=(\\d+)", codes: [[0, 1]], classes: 1)).hasPrefix("--classes:"))
        #expect(error(.init(trialStart: "^start", label: "label=(\\d+)", codes: [[0, 1], [1]])) == "codes: the codes differ in length or are empty")
        #expect(error(.init(trialStart: "^start", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], classes: 2).with(label: "cue;(\\w+)="))
            == "--label: the first capture group of cue;(\\w+)= holds \"label\" in \"cue;label=1\", not a class number")
        #expect(error(.init(trialStart: "^start", label: "label=(\\d+)", codes: [[0, 1]] + [[1, 0]]).with(trialSeconds: 9.5)).contains("no trial of 9.500 s fits"))
        #expect(error(.init(trialStart: "(", label: "x", codes: codes)).hasPrefix("--trial-start: not a regular expression"))
    }

    @Test func aLabelOutsideTheCodesIsRefused() {
        var r = recording()
        r.markers[0].text = "cue;label=7"
        let options = TrialCutOptions(trialStart: "^start_trial$", label: "label=(\\d+)", codes: [[0, 1], [1, 0]])
        #expect(throws: LabFormatError.self) { try MarkerTrialCutter.cut(r, options: options) }
    }
}

extension TrialCutOptions {
    func with(label: String? = nil, trialSeconds: Double? = nil) -> TrialCutOptions {
        var o = self
        if let label { o.label = label }
        if let trialSeconds { o.trialSeconds = trialSeconds }
        return o
    }
}
