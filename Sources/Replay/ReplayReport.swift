import Foundation

/// What a replay found: one ``TrialComparison`` per replayed trial, notes
/// on what was skipped, and the counts; as a table (``text()``) or JSON
/// (``json()``), with the command's exit code.
///
/// ```swift
/// let report = RecordingReplay(script: script).run()
/// print(report.text())
/// exit(report.exitCode)
/// ```
public struct ReplayReport: Sendable {
    /// The recording's folder name.
    public var recording: String
    /// True for an open or crashed recording (no right part in its name).
    public var isOpen: Bool
    /// True when it was still being written as it was read (open, not crashed).
    public var isLive = false
    /// Everything read or rebuilt with a caveat, one sentence each.
    public var notes: [String]
    /// The trials, in order.
    public var trials: [TrialComparison] = []
    /// The first trial that never ended in the recording (cut off by a crash, or still running).
    public var unfinishedTrial: Int?
    /// True for a what-if replay (overrides or re-decoded predictions).
    public var isWhatIf = false
    /// The overrides, as `title=value`.
    public var overrides: [String] = []
    /// True when the decoder's predictions came from a re-decode.
    public var isRedecode = false

    /// Creates an empty report.
    public init(recording: String, isOpen: Bool, notes: [String]) {
        self.recording = recording
        self.isOpen = isOpen
        self.notes = notes
    }

    /// Trials replayed identically.
    public var identical: Int { trials.filter(\.isIdentical).count }
    /// Trials that replayed but diverged (or changed, in a what-if).
    public var diverged: Int { trials.filter { $0.problem == nil && $0.divergence != nil }.count }
    /// Trials that could not be replayed (see ``TrialComparison/problem``).
    public var unreplayable: Int { trials.filter { $0.problem != nil }.count }

    /// 0 when every trial replayed identically (always 0 for a what-if that
    /// could replay every trial), 1 otherwise.
    public var exitCode: Int32 {
        if isWhatIf { return unreplayable > 0 ? 1 : 0 }
        return identical == trials.count ? 0 : 1
    }

    /// Totals over the logged outcomes of the trials that could be replayed
    /// (both totals count the same trials).
    public var loggedTotals: OutcomeTotals { OutcomeTotals(trials.filter { $0.problem == nil }.map { ($0, $0.logged) }) }
    /// Totals over the replayed outcomes.
    public var replayedTotals: OutcomeTotals { OutcomeTotals(trials.filter { $0.problem == nil }.map { ($0, $0.replayed) }) }

    // MARK: Text

    /// The per-trial table, notes, totals for a what-if, and the last line
    /// `replayed N trials: I identical, D diverged` (what-if: `C changed`).
    public func text() -> String {
        var lines: [String] = []
        lines.append("recording: \(recording)" + (isLive ? " (still being recorded)" : isOpen ? " (crashed: never closed)" : ""))
        if isWhatIf { lines.append("what if: " + whatIfDescription) }
        let replayedTitle = isWhatIf ? "what if" : "replayed"
        lines.append(pad("trial", 5, right: true) + "  " + pad("mode", 12) + "  " + pad("logged", 30) + "  " + pad(replayedTitle, 30) + "  result")
        for trial in trials {
            var row = pad(String(trial.trial), 5, right: true) + "  " + pad(trial.mode, 12) + "  " + pad(Self.cell(trial.logged), 30) + "  "
            row += pad(trial.replayed.map(Self.cell) ?? "-", 30) + "  " + result(trial)
            lines.append(row)
        }
        if trials.isEmpty, unfinishedTrial == nil { lines.append("note: no trial started in this recording") }
        for note in notes { lines.append("note: \(note)") }
        if let unfinished = unfinishedTrial {
            lines.append("note: trial \(unfinished) " + (isLive ? "is still running" : "never ended in the recording" + (isOpen ? " (it crashed)" : ""))
                         + "; replayed up to the last complete trial\(trials.last.map { " (\($0.trial))" } ?? "")")
        }
        if isWhatIf {
            let a = loggedTotals, b = replayedTotals
            lines.append("")
            lines.append(pad(unreplayable > 0 ? "(\(trials.count - unreplayable) replayed trials)" : "", 22)
                         + pad("logged", 14, right: true) + pad(replayedTitle, 14, right: true))
            lines.append(pad("presses", 22) + pad("\(a.presses) of \(a.trials)", 14, right: true) + pad("\(b.presses) of \(b.trials)", 14, right: true))
            lines.append(pad("correct (known target)", 22) + pad("\(a.correctPresses)/\(a.pressesWithKnownTarget)", 14, right: true)
                         + pad("\(b.correctPresses)/\(b.pressesWithKnownTarget)", 14, right: true))
            lines.append(pad("mean selection time", 22) + pad(Self.number(a.meanSelectionTime, "s"), 14, right: true)
                         + pad(Self.number(b.meanSelectionTime, "s"), 14, right: true))
            lines.append(pad("ITR", 22) + pad(Self.number(a.bitsPerMinute, "bit/min"), 14, right: true)
                         + pad(Self.number(b.bitsPerMinute, "bit/min"), 14, right: true))
            let changed = trials.filter { $0.divergence != nil }.count
            let failed = trials.filter { $0.problem != nil }.count
            let under = overrides.count > 3 ? "\(overrides.count) settings (listed above)" + (isRedecode ? ", re-decoded predictions" : "") : whatIfDescription
            lines.append("replayed \(trials.count) trials under \(under): "
                         + "\(changed) changed, \(trials.count - changed - failed) unchanged" + (failed > 0 ? ", \(failed) not replayable" : ""))
        } else {
            lines.append("replayed \(trials.count) trials: \(identical) identical, \(diverged) diverged"
                         + (unreplayable > 0 ? ", \(unreplayable) not replayable" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// The overrides and the re-decode, in words.
    var whatIfDescription: String {
        (overrides + (isRedecode ? ["re-decoded predictions"] : [])).joined(separator: ", ")
    }

    private func result(_ trial: TrialComparison) -> String {
        if let problem = trial.problem { return "not replayable: \(problem)" }
        guard let d = trial.divergence else { return isWhatIf ? "unchanged" : "identical" }
        let time = d.time.isFinite ? " at \(TrialComparison.seconds(d.time))" : ""
        return (isWhatIf ? "changed" : "diverged") + ": \(d.item): \(d.logged) → \(d.replayed)\(time)"
    }

    static func cell(_ outcome: TrialOutcome) -> String {
        var text = outcome.ending
        if let pressed = outcome.pressed { text += " " + pressed }
        if let duration = outcome.duration { text += String(format: " %.3f s", duration) }
        return text
    }

    static func number(_ value: Double?, _ unit: String) -> String {
        value.map { String(format: "%.2f %@", $0, unit) } ?? "-"
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let fill = String(repeating: " ", count: width - count)
        return right ? fill + text : text + fill
    }

    // MARK: JSON

    struct OutcomeJSON: Encodable {
        var ending: String
        var pressed: String?
        var pressed_object_id: Int?
        var certainty: Double?
        var end_time: Double?
        var duration: Double?
        var messages: Int
        init(_ o: TrialOutcome) {
            ending = o.ending; pressed = o.pressed; pressed_object_id = o.pressedObjectID; certainty = o.certainty
            end_time = o.endTime; duration = o.duration; messages = o.messages.count
        }
    }

    struct DivergenceJSON: Encodable {
        var item: String
        var logged: String
        var replayed: String
        var time: Double?
    }

    struct TrialJSON: Encodable {
        var trial: Int
        var mode: String
        var target: String?
        var result: String
        var logged: OutcomeJSON
        var replayed: OutcomeJSON?
        var divergence: DivergenceJSON?
        var problem: String?
    }

    struct TotalsJSON: Encodable {
        var trials: Int
        var presses: Int
        var presses_with_known_target: Int
        var correct_presses: Int
        var mean_selection_time: Double?
        var bits_per_minute: Double?
        init(_ t: OutcomeTotals) {
            trials = t.trials; presses = t.presses; presses_with_known_target = t.pressesWithKnownTarget
            correct_presses = t.correctPresses; mean_selection_time = t.meanSelectionTime; bits_per_minute = t.bitsPerMinute
        }
    }

    struct ReportJSON: Encodable {
        var recording: String
        var open: Bool
        var what_if: [String]?
        var redecoded: Bool
        var trials: [TrialJSON]
        var replayed: Int
        var not_replayable: Int
        var identical: Int?
        var diverged: Int?
        var changed: Int?
        var unfinished_trial: Int?
        var notes: [String]
        var totals: [String: TotalsJSON]?
    }

    /// The report as one JSON object: `recording`, `open`, `trials` (each
    /// with `result` — identical, diverged, changed, unchanged or
    /// unreplayable —, `logged`, `replayed`, `divergence`, `problem`),
    /// `replayed` and `not_replayable` (counts), `identical`/`diverged` (or `changed` and `totals`, over the replayed trials, for a
    /// what-if, with `what_if` its overrides and `redecoded`), `unfinished_trial`, `notes`.
    public func json() -> String {
        let rows = trials.map { trial in
            TrialJSON(trial: trial.trial, mode: trial.mode, target: trial.target,
                      result: trial.problem != nil ? "unreplayable"
                        : trial.divergence == nil ? (isWhatIf ? "unchanged" : "identical") : (isWhatIf ? "changed" : "diverged"),
                      logged: OutcomeJSON(trial.logged), replayed: trial.replayed.map(OutcomeJSON.init),
                      divergence: trial.divergence.map {
                          DivergenceJSON(item: $0.item, logged: $0.logged, replayed: $0.replayed, time: $0.time.isFinite ? $0.time : nil)
                      }, problem: trial.problem)
        }
        let changed = trials.filter { $0.divergence != nil }.count
        let object = ReportJSON(recording: recording, open: isOpen, what_if: isWhatIf ? overrides : nil, redecoded: isRedecode, trials: rows,
                                replayed: trials.count - unreplayable, not_replayable: unreplayable, identical: isWhatIf ? nil : identical, diverged: isWhatIf ? nil : diverged,
                                changed: isWhatIf ? changed : nil, unfinished_trial: unfinishedTrial, notes: notes,
                                totals: isWhatIf ? ["logged": TotalsJSON(loggedTotals), "what_if": TotalsJSON(replayedTotals)] : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
