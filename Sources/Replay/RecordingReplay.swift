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
        for start in script.starts {
            if let untilTrial, start.value.trial > untilTrial { break }
            var replay = TrialReplay(script: script, start: start)
            replay.overrides = overrides
            if let incoming { replay.incoming = incoming; replay.incomingAdvises = true }
            guard let logged = replay.loggedOutcome() else {
                report.unfinishedTrial = start.value.trial
                break
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
        return report
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
