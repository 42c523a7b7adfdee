import NoiseTagging

/// Replays every complete trial of a recording (see ``TrialReplay``) and
/// compares each with what was logged; with overrides (what if) or
/// re-decoded predictions it reports how each outcome would have changed.
///
/// ```swift
/// let script = try RecordingScript(folder: url)
/// let report = RecordingReplay(script: script).run()
/// print(report.text())
/// ```
public struct RecordingReplay {
    /// The recording.
    public let script: RecordingScript
    /// Settings to replay under instead of the logged ones.
    public var overrides: [NoiseTagSettingTitles: NoiseTagSettingValue] = [:]
    /// The last trial number to replay (nil: all).
    public var untilTrial: Int?
    /// Decoder messages to feed instead of the logged ones (a re-decode), in time order.
    public var incoming: [RecordingScript.Message]?

    /// Prepares a replay of `script`.
    public init(script: RecordingScript) {
        self.script = script
    }

    /// True when the replay asks "what if" rather than "the same again?".
    public var isWhatIf: Bool { !overrides.isEmpty || incoming != nil }

    /// Runs every trial (up to ``untilTrial``).
    public func run() -> ReplayReport {
        var report = ReplayReport(recording: script.folder.lastPathComponent, isOpen: script.isOpen, notes: script.notes)
        report.isLive = script.isLive
        report.isWhatIf = isWhatIf
        report.overrides = overrides.map { "\($0.key.rawValue)=\($0.value)" }.sorted()
        report.isRedecode = incoming != nil
        let lastTick = script.ticks.last?.time ?? -.infinity
        var notes = Set<String>()
        for (index, start) in script.starts.enumerated() {
            if let untilTrial, start.value.trial > untilTrial { break }
            var replay = TrialReplay(script: script, start: start)
            replay.overrides = overrides
            if let incoming { replay.incoming = incoming; replay.incomingAdvises = true }
            guard let logged = replay.loggedOutcome() else {
                // Only the last trial may lack its end: still running, crashed, or the recording closed during it
                // (then trials.jsonl, written at a trial's end, does not hold it either).
                let next = script.starts.dropFirst(index + 1).first
                if next == nil, script.isOpen || script.recordedTrials[start.value.trial] == nil {
                    report.unfinishedTrial = start.value.trial
                    break
                }
                report.trials.append(lostEnd(start, after: next.map { "trial \($0.value.trial) started after it" } ?? "the recording was closed"))
                continue
            }
            let period = 1 / Double(max(1, rebuiltRate(at: start)))
            var comparison = TrialComparison(trial: start.value.trial, mode: start.value.mode.rawValue,
                                             target: start.value.target, controls: start.value.controls.count, logged: logged)
            if (logged.endTime ?? .infinity) > lastTick + 1.5 * period {
                comparison.problem = lastTick.isFinite
                    ? "frames.csv ends at \(TrialComparison.seconds(lastTick)), before the trial's end (lines lost to a crash or a full disk)"
                    : "frames.csv holds no frame row (lines lost to a crash or a full disk)"
            } else {
                do {
                    let replayed = try replay.run(whatIf: isWhatIf)
                    comparison.replayed = replayed
                    if isWhatIf {
                        comparison.divergence = TrialComparison.outcomeDifferences(logged, replayed, period: period).first
                    } else if logged.start != replayed.start {
                        comparison.divergence = .init(item: "trial start", logged: logged.start ?? "?", replayed: replayed.start ?? "did not start",
                                                      time: start.time)
                    } else {
                        comparison.divergence = TrialComparison.firstDifference(logged, replayed, period: period)
                    }
                } catch {
                    comparison.problem = error.description
                }
            }
            for note in replay.notes where notes.insert(note).inserted { report.notes.append(note) }
            report.trials.append(comparison)
        }
        if !script.isOpen { report.trials += lostStarts() }
        return report
    }

    /// A trial whose end `events.jsonl` lost: not replayable, with what
    /// `trials.jsonl` logged of it as its outcome where it has the trial.
    private func lostEnd(_ start: RecordingScript.Logged<NoiseTagEvent.TrialStart>, after: String) -> TrialComparison {
        let record = script.recordedTrials[start.value.trial]
        var logged = record.map(Self.outcome) ?? TrialOutcome(ending: "unknown")
        logged.start = TrialReplay.summary(start.value)
        var comparison = TrialComparison(trial: start.value.trial, mode: start.value.mode.rawValue,
                                         target: start.value.target, controls: start.value.controls.count, logged: logged)
        comparison.problem = "events.jsonl holds no end of it, though \(after)"
            + (record == nil ? " (a line lost or damaged)" : " (trials.jsonl holds it: a line of events.jsonl lost or damaged)")
        return comparison
    }

    /// Trials that `trials.jsonl` of a closed recording holds and
    /// `events.jsonl` never started (its lines lost): not replayable.
    private func lostStarts() -> [TrialComparison] {
        let started = Set(script.starts.map(\.value.trial))
        let from = script.starts.first?.time ?? -.infinity
        return script.recordedTrials.values
            .filter { !started.contains($0.trial) && $0.startTime >= from && $0.trial <= (untilTrial ?? .max) }
            .sorted { $0.trial < $1.trial }
            .map { record in
                var comparison = TrialComparison(trial: record.trial, mode: record.mode, target: record.target,
                                                 controls: record.controls.count, logged: Self.outcome(record))
                comparison.problem = "trials.jsonl holds it, but events.jsonl never started it (its lines lost or damaged)"
                return comparison
            }
    }

    /// A trial's outcome as `trials.jsonl` logged it (no messages).
    private static func outcome(_ record: RecordedTrial) -> TrialOutcome {
        TrialOutcome(ending: record.ending, pressed: record.pressed, pressedObjectID: record.pressedObjectID,
                     certainty: record.certainty, endTime: record.endTime, duration: record.endTime - record.startTime)
    }

    /// The frame rate the trial ran at (the setting as it stood at its start).
    private func rebuiltRate(at start: RecordingScript.Logged<NoiseTagEvent.TrialStart>) -> Int {
        let title = NoiseTagSettingTitles.preferredNFramesPerSecond
        let value = script.settingValues(before: start.order)[title.rawValue]
        if case .int(let rate)? = overrides[title] ?? value { return rate }
        if case .double(let rate)? = overrides[title] ?? value { return Int(rate) }
        return 60
    }
}
