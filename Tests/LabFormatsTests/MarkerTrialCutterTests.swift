import Decoding
import Testing
@testable import LabFormats

@Suite struct MarkerTrialCutterTests {
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
        let d = try MarkerTrialCutter.cut(recording(), options: options)
        #expect(d.header.nTrials == 2 && d.header.nSamples == 200 && d.header.nContinuous == 1000)
        #expect(d.labels == [1, 0])
        #expect(d.context?.onsets == [100, 400])
        #expect(d.trial(1)[0][0] == 400 && d.trial(1)[1][5] == -405)
        // Class 0's code 0,1 at 10 bits/s over 100 Hz: 10 samples per bit.
        #expect(Array(d.stimulus(ofClass: 0).prefix(21)) == Array(repeating: 0, count: 10) + Array(repeating: 1, count: 10) + [0])
        #expect(d.header.channels == ["Oz", "Pz"])
    }

    @Test func withoutTrialSecondsTheShortestGapIsTheLength() throws {
        let options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]])
        #expect(try MarkerTrialCutter.cut(recording(), options: options).header.nSamples == 300)
    }

    @Test func trialEndMarkersGiveTheShortestSpan() throws {
        var options = TrialCutOptions(trialStart: "^start_trial", label: "label=(\\d+)", codes: [[0, 1], [1, 0]])
        options.trialEnd = "^end$"
        // From each start to the first end marker after it: 700 − 100 and 700 − 400.
        #expect(try MarkerTrialCutter.cut(recording(), options: options).header.nSamples == 300)
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
        #expect(error(.init(trialStart: "^start", label: "label=(\\d+)", codes: [[0, 1], [1, 0]], classes: 2).with(label: "label=([a-z]+)")).hasPrefix("--label:"))
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
