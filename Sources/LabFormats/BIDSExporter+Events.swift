import Decoding
import Foundation
import NoiseTagging

extension BIDSExporter {
    // MARK: Events

    /// Every event on the EEG's samples, by sample (stable); events outside the EEG are counted in a warning.
    static func events(_ recording: EngineRecording, _ eeg: RecordingEEG, warnings: inout [String]) -> [BIDSEvent] {
        var events: [BIDSEvent] = []
        var outside: [String: Int] = [:]
        func sample(_ ms: Double, _ type: String) -> Int? {
            if let s = eeg.sample(atOrAfter: ms) { return s }
            outside[type, default: 0] += 1
            return nil
        }
        func length(from s: Int, to ms: Double) -> Int { max(0, (eeg.sample(atOrAfter: ms) ?? eeg.sampleCount) - s) }

        // Trials: the decoder's flicker, with trials.jsonl's facts.
        var used = Set<Int>()
        // A trial is its folder and its number: a resumed session's engine numbers from 1 again.
        struct TrialKey: Hashable { var folder: Int, trial: Int }
        let folderOf = { (index: Int) in index < recording.trialFolders.count ? recording.trialFolders[index] : 0 }
        let targets = Dictionary(recording.trials.indices.map { (TrialKey(folder: folderOf($0), trial: recording.trials[$0].trial), recording.trials[$0].targetObjectID) },
                                 uniquingKeysWith: { a, _ in a })
        let session = recording.isSession
        for (index, trial) in recording.trials.enumerated() {
            let folder = folderOf(index)
            // In a session, the finished step the trial ran in; none: a step stopped and run again on resume.
            let step = session ? recording.step(holdingTrialAt: trial.flickerTime ?? trial.startTime, in: folder) : nil
            if let cue = trial.cueTime, let s = sample(cue * 1000, "cue") {
                var event = BIDSEvent(sample: s, samples: length(from: s, to: (trial.pauseTime ?? trial.flickerTime ?? cue) * 1000), trialType: "cue")
                event.trial = trial.trial
                event.recording = session ? folder + 1 : nil
                event.mode = trial.mode
                event.target = trial.targetObjectID
                event.setStep(step, inSession: session)
                events.append(event)
            }
            guard let flicker = trial.flickerTime else { continue }
            let match = eeg.flickers.indices.first {
                !used.contains($0) && eeg.flickers[$0].start >= flicker * 1000 - 100 && eeg.flickers[$0].start <= trial.endTime * 1000
            }
            if let match { used.insert(match) }
            let start = match.map { eeg.flickers[$0].start } ?? flicker * 1000
            let end = match.map { eeg.flickers[$0].end } ?? trial.endTime * 1000
            guard let s = sample(start, "trial") else { continue }
            var event = BIDSEvent(sample: s, samples: length(from: s, to: end), trialType: "trial")
            event.trial = trial.trial
            event.recording = session ? folder + 1 : nil
            event.mode = trial.mode
            event.target = trial.targetObjectID
            event.pressed = trial.pressedObjectID
            event.control = trial.pressed
            event.ending = trial.ending
            event.certainty = trial.certainty
            event.setStep(step, inSession: session)
            events.append(event)
            // An interrupted attempt's trials are no calibration trials: they keep their `trial` row only.
            if let target = trial.targetObjectID, !session || step != nil {
                event.trialType = "target=\(target)"
                events.append(event)
            }
        }
        // Flickers no trial line names: a trial cut by a kill. Its recording is the one whose decoder input
        // holds it; in a session, its step (none: a step run again, so "interrupted"); it ends where the EEG did.
        for (index, flicker) in eeg.flickers.enumerated() where !used.contains(index) {
            guard let s = sample(flicker.start, "trial") else { continue }
            var samples = length(from: s, to: flicker.end)
            if let gap = eeg.gaps.first(where: { $0.sample > s && $0.sample < s + samples }) { samples = gap.sample - s }
            var event = BIDSEvent(sample: s, samples: samples, trialType: "trial")
            if session, let folder = recording.inputStarts.last(where: { $0.milliseconds <= flicker.start })?.folder {
                event.recording = folder + 1
                event.setStep(recording.step(holdingTrialAt: flicker.start / 1000, in: folder), inSession: session)
            }
            events.append(event)
        }
        for (index, press) in recording.presses.enumerated() {
            let type = "press/\(press.source)"
            guard let s = sample(press.time * 1000, type) else { continue }
            let folder = index < recording.pressFolders.count ? recording.pressFolders[index] : 0
            var event = BIDSEvent(sample: s, trialType: type)
            event.trial = press.trial
            event.recording = session ? folder + 1 : nil
            event.pressed = press.objectID
            event.control = press.control
            event.target = press.trial.flatMap { targets[TrialKey(folder: folder, trial: $0)] ?? nil }
            event.certainty = press.certainty
            events.append(event)
        }
        // What ends with the EEG, a moment after its last packet (the session's last step, the decoder set idle
        // as it closes), stands at that last sample rather than outside.
        func endsWithTheEEG(_ milliseconds: Double) -> Bool {
            eeg.times.last.map { milliseconds > $0 && milliseconds <= $0 + 2000 } ?? false
        }
        for change in eeg.modeChanges {
            let type = "mode/\(change.mode)"
            let last = change.mode == "idle" && change.time == eeg.modeChanges.last?.time && endsWithTheEEG(change.time)
            if let s = last ? eeg.sampleCount - 1 : sample(change.time, type) { events.append(BIDSEvent(sample: s, trialType: type)) }
        }
        for step in recording.steps {
            for (type, time) in [("step_start/\(step.kind)", step.startTime), ("step_end/\(step.kind)", step.endTime)] {
                let last = type.hasPrefix("step_end/") && endsWithTheEEG(time * 1000)
                guard let s = last ? eeg.sampleCount - 1 : sample(time * 1000, type) else { continue }
                var event = BIDSEvent(sample: s, trialType: type)
                event.step = step.step
                event.stepName = step.name
                event.outcome = step.outcome
                events.append(event)
            }
        }
        for gap in eeg.gaps { events.append(BIDSEvent(sample: gap.sample, samples: gap.count, trialType: "BAD_gap")) }
        var run: Int?
        for s in 0...eeg.sampleCount {
            let bad = s < eeg.sampleCount && eeg.samples.contains { !$0[s].isFinite }
            if bad, run == nil { run = s }
            if !bad, let first = run {
                events.append(BIDSEvent(sample: first, samples: s - first, trialType: "BAD_nonfinite"))
                run = nil
            }
        }
        if !outside.isEmpty {
            warnings.append("events outside the EEG left out: " + outside.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        return events.enumerated().sorted { ($0.element.sample, $0.offset) < ($1.element.sample, $1.offset) }.map(\.element)
    }
}

extension EngineRecording {
    /// The finished step of this session whose time holds a trial that
    /// flickered from `time` (engine seconds) in folder `folder` (an index
    /// into ``folders``), and whose recordings include that folder (when
    /// it lists any); nil when none does: the trial ran in an attempt that
    /// was stopped and run again on resume.
    func step(holdingTrialAt time: Double, in folder: Int) -> StepResult? {
        guard folder < folders.count else { return nil }
        let name = folders[folder].lastPathComponent
        return steps.first { step in
            time >= step.startTime && time <= step.endTime
                && (step.recordings.isEmpty || step.recordings.contains { name.hasPrefix($0) })
        }
    }
}

extension BIDSEvent {
    /// A session trial's step columns: its step's number, name and outcome,
    /// or outcome `interrupted` for a trial in no finished step.
    mutating func setStep(_ step: StepResult?, inSession session: Bool) {
        guard session else { return }
        self.step = step?.step
        stepName = step?.name
        outcome = step?.outcome ?? "interrupted"
    }
}
