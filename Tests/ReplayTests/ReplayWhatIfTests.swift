import Foundation
import NoiseTagging
@testable import Replay
import Testing
import UtopiaProtocol

@Suite struct ReplayWhatIfTests {
    @Test func aHigherThresholdPressesLessOrLaterAndALowerOneMoreOrEarlier() throws {
        let session = try ScriptedSession()
        let script = try RecordingScript(folder: session.folder)
        func replay(_ threshold: Double) -> ReplayReport {
            var replay = RecordingReplay(script: script)
            replay.overrides = [.certaintyRequiredForPress: .double(threshold)]
            return replay.run()
        }
        let higher = replay(0.99), lower = replay(0.7)
        #expect(higher.isWhatIf && lower.isWhatIf)
        #expect(higher.trials.allSatisfy { $0.problem == nil })
        var later = 0, earlier = 0
        for (high, low) in zip(higher.trials, lower.trials) where !high.mode.hasPrefix("Train") {
            let logged = high.logged
            guard logged.ending == "pressed-brain", let loggedTime = logged.duration else { continue }
            let h = try #require(high.replayed), l = try #require(low.replayed)
            // Higher: no press, or a press no earlier than the logged one.
            if h.isPress { #expect(h.duration! >= loggedTime - 1e-9) } else { later += 1 }
            if h.isPress, h.duration! > loggedTime + 1e-9 { later += 1 }
            // Lower: a press, no later than the logged one.
            #expect(l.isPress)
            #expect(l.duration! <= loggedTime + 1e-9)
            if l.duration! < loggedTime - 1e-9 { earlier += 1 }
        }
        #expect(later > 0 && earlier > 0)
        #expect(higher.replayedTotals.presses < higher.loggedTotals.presses)
        #expect(lower.replayedTotals.presses >= lower.loggedTotals.presses)
        #expect(lower.replayedTotals.meanSelectionTime! < lower.loggedTotals.meanSelectionTime!)
        // The lower threshold takes the decoder's early wrong guess in Verify, where the target is known.
        #expect(lower.replayedTotals.accuracy! < higher.loggedTotals.accuracy!)
        #expect(higher.text().contains("replayed \(higher.trials.count) trials under certaintyRequiredForPress=0.99: "))
        #expect(higher.exitCode == 0)
        // A trial that no longer presses stops at the recording's next trial start, unfinished: it never outlives it.
        let never = replay(0.999999)
        let starts = script.starts.map(\.time)
        for (k, trial) in never.trials.enumerated() where k + 1 < starts.count {
            let r = try #require(trial.replayed)
            if let end = r.endTime { #expect(end <= starts[k + 1] + 1e-9, "trial \(trial.trial) ended at \(end), after \(starts[k + 1])") }
        }
        #expect(never.trials.dropLast().contains { $0.replayed?.ending == "unfinished" })
        // Its time still counts in the ITR's time per press: at least the logged trial's (it had counted 0 s).
        let counted = never.trials.filter { !$0.mode.hasPrefix("Train") }
        let least = counted.reduce(0.0) { $0 + ($1.replayed?.duration ?? $1.logged.duration ?? 0) }
        #expect(never.replayedTotals.trialSeconds == least)
        #expect(never.replayedTotals.trialSeconds >= never.loggedTotals.trialSeconds - 1e-9)
    }

    @Test func aRedecodesThresholdAdviceStandsAtEachTrialsStart() throws {
        // The threshold left to the decoder (0.9 by default, not set by the app); a re-decode advises 0.7
        // before the first Test trial: every later trial starts with 0.7, as if the app had set it.
        let session = try ScriptedSession(steps: [], configure: { $0.resetToDefault(.certaintyRequiredForPress) })
        let script = try RecordingScript(folder: session.folder)
        let firstTest = try #require(script.starts.first { !$0.value.mode.isTraining })
        let advice = UtopiaCodec.encode(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.7)))
        var redecode = RecordingReplay(script: script)
        redecode.incoming = (script.incoming.filter { $0.id != "T" } + [RecordingScript.Message(time: firstTest.time - 0.5, id: "T", bytes: advice, line: 0)])
            .sorted { $0.time < $1.time }
        let advised = redecode.run()
        var pinned = RecordingReplay(script: script)
        pinned.overrides = [.certaintyRequiredForPress: .double(Double(Float(0.7)))]
        let set = pinned.run()
        let outcome = { (r: ReplayReport) in r.trials.map { [$0.replayed?.ending ?? "-", $0.replayed?.duration.map { String(format: "%.4f", $0) } ?? "-"] } }
        #expect(outcome(advised) == outcome(set))
        #expect(advised.replayedTotals.meanSelectionTime! < advised.loggedTotals.meanSelectionTime!, "0.7 presses sooner than the logged 0.9")
    }

    @Test func theThresholdSweepIsMonotone() throws {
        let session = try ScriptedSession()
        let script = try RecordingScript(folder: session.folder)
        let sweep = try ParameterSweep(parsing: "certaintyRequiredForPress=0.5:0.99:0.07")
        #expect(sweep.values.count == 8)
        let points = sweep.run(script)
        for (a, b) in zip(points, points.dropFirst()) {
            #expect(b.totals.presses <= a.totals.presses, "\(a.value) → \(b.value)")
            if let aa = a.totals.accuracy, let ab = b.totals.accuracy { #expect(ab >= aa - 1e-9) }
        }
        #expect(points.first!.totals.presses > points.last!.totals.presses)
        #expect(points.first!.totals.accuracy! < points.last!.totals.accuracy ?? 1)
        // Trial by trial, a brain press never comes earlier under a higher threshold.
        let reports = sweep.values.map { value in
            var replay = RecordingReplay(script: script)
            replay.overrides = [.certaintyRequiredForPress: .double(value)]
            return replay.run()
        }
        for (low, high) in zip(reports, reports.dropFirst()) {
            for (a, b) in zip(low.trials, high.trials) where b.replayed?.ending == "pressed-brain" {
                #expect(a.replayed?.ending == "pressed-brain")
                #expect(b.replayed!.duration! >= a.replayed!.duration! - 1e-9, "trial \(a.trial)")
            }
        }
        let svg = SweepPlot(sweep: sweep, points: points, logged: RecordingReplay(script: script).run().loggedTotals).svg
        #expect(svg.hasPrefix("<svg") && svg.contains("<polyline") && svg.contains("logged"))
    }

    @Test func badOverridesAndSweepsAreNamed() throws {
        #expect(throws: ReplayOptionError.self) { try SettingOverrides(file: nil, sets: ["certaintyRequiredForPress=2"]) }
        do { _ = try SettingOverrides(file: nil, sets: ["noSuchSetting=1"]) } catch {
            #expect(error.description.contains("noSuchSetting"))
        }
        do { _ = try ParameterSweep(parsing: "certaintyRequiredForPress=0.9:0.1:0.1") } catch {
            #expect(error.description.contains("FROM ≤ TO"))
        }
        do { _ = try ParameterSweep(parsing: "clickFeedbackMode=1:2:1") } catch {
            #expect(error.description.contains("not a number setting"))
        }
        let values = try SettingOverrides(file: nil, sets: ["minTrialDuration=0.5", "certaintyRequiredForPress=0.97"]).values
        #expect(values[.minTrialDuration] == .double(0.5))
        #expect(values[.certaintyRequiredForPress] == .double(0.97))
        // What replay controls itself, a title set twice, fractions of a whole-number setting: refused by name.
        func refusal(_ make: () throws -> Void) -> String {
            do { try make(); return "accepted" } catch { return "\(error)" }
        }
        #expect(refusal { _ = try SettingOverrides(file: nil, sets: ["mode=Verify"]) }
            == "--set 'mode=Verify': replay follows the recording's own mode changes: mode cannot be a what-if")
        #expect(refusal { _ = try SettingOverrides(file: nil, sets: ["minTrialDuration=0.5", "minTrialDuration=0.7"]) }
            == "--set 'minTrialDuration=0.7': minTrialDuration is already set ('minTrialDuration=0.5'): give it once")
        #expect(refusal { _ = try ParameterSweep(parsing: "framesPerBit=1:3:0.5") }
            == "--sweep 'framesPerBit=1:3:0.5': framesPerBit takes whole numbers: FROM and STEP must be whole")
        #expect(refusal { _ = try ParameterSweep(parsing: "recordingsEnabled=0:1:1") }.hasSuffix("is not a number setting"))
        // A settings file's mode and recording switches are left out, and said; a what-if that cannot act is said.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("overrides-\(UUID().uuidString).json")
        try #"{"mode": "Verify", "recordingsEnabled": true, "minTrialDuration": 0.5, "feedbackDuration": 2}"#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try SettingOverrides(file: file.path, sets: ["timeInBetweenTrials=10"])
        #expect(fromFile.values.keys.sorted { $0.rawValue < $1.rawValue } == [.feedbackDuration, .minTrialDuration, .timeInBetweenTrials])
        // A between-trials setting in the file is said as one given by --set is.
        #expect(fromFile.notes == ["--with-settings: mode, recordingsEnabled left out: a replay follows the recording's modes and never records or prints",
                                   "feedbackDuration acts only between trials, and replay starts each trial at its logged start: no outcome can change with it",
                                   "timeInBetweenTrials acts only between trials, and replay starts each trial at its logged start: no outcome can change with it"])
    }
}

/// Where a trial's end time stops counting as the same: within a frame
/// period (a call between frames ends a trial when the replay's clock
/// cannot), unless the trial flickered a different number of frames.
@Suite struct TrialEndComparisonTests {
    static let period = 1.0 / 60

    func outcome(end: Double, frames: Int) -> TrialOutcome {
        var outcome = TrialOutcome(ending: "pressed-brain", pressed: "L", endTime: end)
        outcome.messages = (0..<frames).map { k in
            TrialOutcome.SentMessage(time: end - Double(frames - k) * Self.period, bytes: [0x45, 0, 0, 0, UInt8(k % 256)])
        }
        return outcome
    }

    @Test func aPressOneFrameSoonerIsAChangeEvenWhenTheFramesCameCloserThanAPeriod() {
        // 16.61 ms sooner, one STIMULUSEVENT fewer: what a what-if replay showed as "unchanged".
        let logged = outcome(end: 10282.146686, frames: 64), replayed = outcome(end: 10282.130077, frames: 63)
        let found = TrialComparison.outcomeDifferences(logged, replayed, period: Self.period)
        #expect(found.map(\.item) == ["end time"])
    }

    @Test func theSameFramesEndedLaterByACallAreTheSameTrial() {
        let logged = outcome(end: 10.0, frames: 64), replayed = outcome(end: 10.0 - 0.9 * Self.period, frames: 64)
        #expect(TrialComparison.outcomeDifferences(logged, replayed, period: Self.period).isEmpty)
    }
}
