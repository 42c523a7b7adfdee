import Foundation
import NoiseTagging
@testable import Replay
import Testing
import UtopiaProtocol

@Suite struct ReplayIdentityTests {
    @Test func aScriptedSessionReplaysIdentically() throws {
        let session = try ScriptedSession()
        let script = try RecordingScript(folder: session.folder)
        let report = RecordingReplay(script: script).run()
        #expect(report.trials.count >= 12)
        #expect(report.diverged == 0, "\(report.text())")
        #expect(report.exitCode == 0)
        #expect(report.text().hasSuffix("replayed \(report.trials.count) trials: \(report.trials.count) identical, 0 diverged"))
        // Every kind of trial is there, and the comparison had messages to compare.
        let endings = Set(report.trials.map(\.logged.ending))
        #expect(endings.isSuperset(of: ["completed", "pressed-brain", "pressed-touch", "stopped-blocked"]), "\(endings)")
        for trial in report.trials {
            #expect(trial.logged.messages.count > 10, "trial \(trial.trial): \(trial.logged.messages.count) messages")
            #expect(trial.replayed?.messages == trial.logged.messages)
        }
        #expect(Set(report.trials.map(\.mode)) == ["TrainGeneric", "Test", "Verify"])
    }

    @Test func theSmallestGridReplaysIdenticallyWithItsTouch() throws {
        let session = try ScriptedSession(seconds: 12, buttons: 2)
        let report = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        #expect(report.diverged == 0, "\(report.text())")
        #expect(report.trials.contains { $0.logged.ending == "pressed-touch" })
    }

    @Test func aStepTouchingAMissingButtonIsRefusedByName() {
        #expect {
            _ = try ScriptedSession(seconds: 2, buttons: 3, steps: [(trial: 1, after: 0.1, step: .touch(3))])
        } throws: { error in
            "\(error)" == "scripted session: the step in trial 1 touches button 3, but the session has 3 buttons (0...2)"
        }
    }

    @Test func aChangedPredictionMakesItsTrialDivergeWithBothValues() throws {
        let session = try ScriptedSession()
        let url = session.folder.appendingPathComponent("decoder.csv")
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let script = try RecordingScript(folder: session.folder)
        // The prediction that decided the first brain press of a Test trial names another object.
        let end = try #require(script.ends.first { $0.value.mode == .test && $0.value.ending == .pressed(.brain) })
        let row = try #require(script.incoming.last { $0.id == "P" && $0.time <= end.time })
        var bytes = row.bytes
        let wasObject = bytes[8]
        bytes[8] = wasObject == 1 ? 2 : 1
        var cells = lines[row.line - 1].split(separator: ",").map(String.init)
        cells[4] = bytes.map { String(format: "%02x", $0) }.joined()
        lines[row.line - 1] = cells.joined(separator: ",")
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)

        let report = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        #expect(report.diverged == 1)
        #expect(report.exitCode == 1)
        let diverged = try #require(report.trials.first { !$0.isIdentical })
        #expect(diverged.trial == end.value.trial)
        let divergence = try #require(diverged.divergence)
        // The first difference is the press: the control the logged run pressed against the one the replay pressed.
        #expect(divergence.item == "pressed" || divergence.item.hasPrefix("SELECTION"), "\(divergence)")
        #expect(divergence.logged != divergence.replayed)
        #expect(abs(divergence.time - end.time) < 1e-6)
        #expect(report.text().contains("diverged: \(divergence.item): \(divergence.logged) → \(divergence.replayed)"))
        #expect(report.text().hasSuffix("replayed \(report.trials.count) trials: \(report.trials.count - 1) identical, 1 diverged"))
    }

    @Test func aChangedStimulusByteIsNamedWithItsIndex() throws {
        let session = try ScriptedSession(seconds: 6)
        let script = try RecordingScript(folder: session.folder)
        let url = session.folder.appendingPathComponent("decoder.csv")
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(script.starts.first)
        let events = script.outgoing.filter { $0.id == "E" && $0.time > start.time }
        let row = events[4]
        var cells = lines[row.line - 1].split(separator: ",").map(String.init)
        var hex = Array(cells[4])
        hex[hex.count - 1] = hex[hex.count - 1] == "0" ? "1" : "0"     // the last object's state flips
        cells[4] = String(hex)
        lines[row.line - 1] = cells.joined(separator: ",")
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)

        let report = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        let first = try #require(report.trials.first)
        #expect(first.divergence?.item == "STIMULUSEVENT #5")
        #expect(first.divergence?.time == row.time)
        #expect(first.divergence?.logged.hasPrefix("STIMULUSEVENT") == true)
    }
}

@Suite struct ReplayOfCallsBetweenTicksTests {
    /// Trials turned off between ticks end the trial, and the call's later
    /// messages (MODECHANGE idle) go out a little after the end on a real
    /// clock; the replay, whose clock stands still within a call, sends them
    /// at the end. Both count as the trial's, so the trial replays identical,
    /// and no frame line is taken for lost.
    @Test func trialsTurnedOffBetweenTicksReplayIdentically() throws {
        let session = try ScriptedSession(seconds: 20, steps: ScriptedSession.defaultSteps + [(11, 0.5113, .trialsOff)],
                                          clockMovesInCalls: true)
        let report = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        let last = try #require(report.trials.last)
        #expect(last.logged.ending == "stopped-trialsOff")
        #expect(last.logged.messages.last.map { TrialComparison.describe($0.bytes) }?.hasSuffix(" idle") == true)
        #expect(report.diverged == 0, "\(report.text())")
        #expect(!report.text().contains("frame line was lost"))
    }

    @Test func aDecoderRestartedWithinTheTimeoutReplaysIdentically() throws {
        let session = try ScriptedSession(steps: ScriptedSession.defaultSteps + [(12, 0.6, .decoderRestart)])
        let report = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        let stopped = try #require(report.trials.first { $0.logged.ending == "stopped-decoderLost" }, "\(report.trials.map { ($0.trial, $0.logged.ending) })")
        #expect(stopped.trial == 12)
        // The greeting the new decoder got (SUBSCRIBE is not compared; the mode is) was replayed too.
        #expect(stopped.logged.messages.last.map { TrialComparison.describe($0.bytes) }?.hasPrefix("MODECHANGE") == true,
                "\(stopped.logged.messages.last.map { TrialComparison.describe($0.bytes) } ?? "none")")
        #expect(report.diverged == 0, "\(report.text())")
    }
}
