import Foundation

/// A ``SessionReport`` as one self-contained HTML page: inline CSS and
/// inline SVG charts (``SVGChart``), no script, no fonts or images fetched
/// from anywhere, laid out to print on A4. Times of day are in `timeZone`,
/// named in the header.
///
/// ```swift
/// let report = try SessionReport(folder: SessionFolder.open(sessionURL))
/// let html = SessionReportPage(report: report).html
/// try Data(html.utf8).write(to: URL(fileURLWithPath: "report.html"))
/// ```
public struct SessionReportPage: Sendable {
    /// What the page shows.
    public var report: SessionReport
    /// The zone times of day are written in.
    public var timeZone: TimeZone
    /// When the page was made (shown in its footer).
    public var generated: Date

    /// A page for `report`.
    public init(report: SessionReport, timeZone: TimeZone = .current, generated: Date = Date()) {
        self.report = report
        self.timeZone = timeZone
        self.generated = generated
    }

    /// The HTML document.
    public var html: String {
        let r = report, m = r.manifest
        let title = "Session report: \(m.participant), \(r.protocolName)"
        var body = "<header>\n<h1>\(e(title))</h1>\n"
        if let description = r.protocolDescription { body += "<p class=\"lead\">\(e(description))</p>\n" }
        body += "<dl class=\"facts\">\n"
        body += fact("Participant", m.participant)
        body += fact("Protocol", r.protocolName + " (" + m.protocolFile + ")")
        body += fact("Started", dateTime(m.startedWallTime))
        let finished = Set(r.steps.map(\.number)).count     // a step tried twice (a failed check run again) is one
        let unfinished = r.isRunning ? "the session is still running" : "the session stopped early"
        body += fact("Steps", "\(finished) finished" + (r.protocolSteps.map { $0 > finished ? " of \($0): \(unfinished)" : " of \($0)" } ?? ""))
        let between = SessionRun.secondsBetween(r.runs)
        if let last = r.steps.last {
            // From the session's start (not its first finished step's) to the last step's end.
            body += fact("Duration", duration(last.startWallTime + last.duration - m.startedWallTime)
                         + (between > 0 ? ", of which \(duration(between)) between runs" : ""))
        }
        if r.runs.count > 1 {
            let times = r.runs.count == 2 ? "once" : "\(r.runs.count - 1) times"
            body += fact("Runs", "\(r.runs.count): stopped and resumed \(times); each run went on from the first step not yet done")
        }
        body += fact("Participant type", m.simulated
                     ? "simulated (headless run, seed \(m.seed)" + (m.snr.map { String(format: ", SNR %g", $0) } ?? "") + ")"
                     : "a person (not simulated)")
        body += fact("Decoder settings", decoderSettings(m.decoderSettings))
        body += fact("Session folder", r.folderName)
        body += "</dl>\n</header>\n"
        body += stepTable
        body += spellingSection
        body += calibrationSection
        body += signalSection
        body += noControlSection
        body += questionnaireSection
        body += "<footer>Made by <code>noisetag session report</code> on \(e(dateTime(generated.timeIntervalSince1970))). "
            + "Times of day are \(e(zoneName)). Measures as the session runner wrote them in steps.jsonl"
            + (refitted ? "; calibration figures fitted again from the saved dataset by the reference decoder" : "") + ".</footer>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title))</title>
            <style>
            \(Self.style)
            </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    // MARK: Sections

    var stepTable: String {
        guard !report.steps.isEmpty else { return section("steps", "Steps", absent("No step finished: steps.jsonl is empty or missing.")) }
        let rows = report.steps.map { step in
            "<tr><td class=\"num\">\(step.number)</td><td>\(e(step.name))</td><td>\(e(step.kind))</td>"
                + "<td>\(e(clock(step.startWallTime)))</td><td class=\"num\">\(e(duration(step.duration)))</td>"
                + "<td><span class=\"outcome \(e(step.outcome))\">\(e(step.outcome))</span></td><td>\(e(step.keyMeasure))</td></tr>\n"
        }
        return section("steps", "Steps", table([.text("#"), .text("Name"), .text("Kind"), .text("Start"), .number("Duration"),
                                                .text("Outcome"), .text("Key measure")], class: "steps", rows: rows))
    }

    var spellingSection: String {
        section("spelling", "Spelling: accuracy and information transfer", part(report.spelling) { rows in
            var s = ""
            s += table([.text("#"), .text("Step"), .text("Text / typed"), .number("N keys"), .number("Selections"), .number("Right"),
                        .number("Accuracy P"), .number("s per selection"), .number("Mean selection time"),
                        .number("bits per selection"), .number("ITR (bits/min)")], rows: rows.map { row in
                "<tr><td class=\"num\">\(row.step)</td><td>\(e(row.name))" + (row.name == row.kind ? "" : "<br><small>\(e(row.kind))</small>") + "</td>"
                    + "<td>\(e(row.text ?? "(free)"))<br><small>typed: \(e(row.typed ?? "–"))</small></td>"
                    + "<td class=\"num\">\(row.classes.map(String.init) ?? "–")</td><td class=\"num\">\(row.selections)</td>"
                    + "<td class=\"num\">\(row.judged > 0 ? "\(row.correct) of \(row.judged)" : "not judged")</td>"
                    + "<td class=\"num\">\(row.accuracy.map { fmt("%.1f %%", $0 * 100) } ?? "–")</td>"
                    + "<td class=\"num\">\(row.secondsPerSelection.map { fmt("%.2f", $0) } ?? "–")</td>"
                    + "<td class=\"num\">\(row.meanSelectionTime.map { fmt("%.2f s", $0) } ?? "–")</td>"
                    + "<td class=\"num\">\(row.bitsPerSelection.map { fmt("%.2f", $0) } ?? "–")</td>"
                    + "<td class=\"num strong\">\(row.bitsPerMinute.map { fmt("%.1f", $0) } ?? "–")</td></tr>\n"
            })
            s += "<p class=\"note\">ITR after Wolpaw: bits per selection B = log₂N + P log₂P + (1 − P) log₂((1 − P)/(N − 1)), "
                + "with N the keys on screen and P the right presses among those whose intended key was known; B = log₂N at P = 1 "
                + "and 0 at P ≤ 1/N (no better than chance). Time per selection is the step's whole time over its selections, so cues, "
                + "pauses between trials and trials without a press count. Free spelling by a person has no intended keys: no P, no ITR; by the simulated participant its choices are known, and judged.</p>\n"
            return s
        } + "<h3>Selection times</h3>\n" + part(report.selectionTimes) { histogram in
            var chart = SVGChart(xLabel: "seconds from the trial's start to its press", yLabel: "presses")
            chart.identifier = "selection-times"
            chart.height = 260
            chart.yWholeNumbers = true
            chart.bars = histogram.counts.enumerated().map { i, count in
                SVGChart.Bar(from: histogram.lowerEdge(i), to: histogram.lowerEdge(i + 1), value: Double(count))
            }
            chart.xRange = max(0, histogram.origin - histogram.width)...histogram.lowerEdge(histogram.counts.count + 1)
            chart.summary = "Histogram of \(histogram.seconds.count) selection times"
            return figure(chart.svg, caption: "Brain and touch presses of every spelling step (\(histogram.seconds.count)), in bins of "
                          + fmt("%g s", histogram.width) + "; mean " + fmt("%.2f s", histogram.mean ?? 0)
                          + ", median " + fmt("%.2f s", histogram.median ?? 0) + ".")
        })
    }

    /// True when a calibration's figures were fitted again for this page.
    var refitted: Bool { report.calibrations.value?.contains { $0.figures.value != nil } ?? false }

    var calibrationSection: String {
        section("calibration", "Calibration", part(report.calibrations) { rows in
            var s = ""
            for row in rows {
                if rows.count > 1 { s += "<h3>Step \(row.step): \(e(row.name))</h3>\n" }
                s += part(row.figures) { calibration($0, row: row) }
            }
            return s
        })
    }

    func calibration(_ c: CalibrationFigures, row: SessionReport.Calibration) -> String {
        var s = "<p>\(c.trials) trials of " + fmt("%.1f s", c.trialSeconds) + ", \(c.classes) distinct codes shown (the engine moves"
            + " the codes between calibration trials, so a keyboard shows more codes than keys), \(c.channels) channels at "
            + fmt("%.0f Hz", c.sampleRate) + " (<code>\(e(row.dataset))</code>). Fitted again here on that dataset, the settings"
            + " selection chose <strong>\(e(c.chosen.summary))</strong>; the response starts " + fmt("%.0f ms", c.responseLatency * 1000)
            + " after the stimulus."
        if let live = row.decoderChose {
            s += live == c.chosen.summary ? " The live decoder chose the same."
                : " During the session the live decoder chose <strong>\(e(live))</strong>: it filtered the EEG as it arrived and scored"
                  + " only the codes on screen, so a close call between two settings can fall the other way."
        }
        if let reported = row.reportedAccuracy { s += " During the session the decoder reported " + fmt("%.0f %%", reported * 100) + " cross-validated accuracy." }
        s += " (<em>refe</em>: a response to each rising and each falling edge of a code; <em>duration</em>: one per flash length;"
            + " the latency is where the modelled response starts; whitening: the EEG's background made white before scoring.)"
        s += "</p>\n<div class=\"pair\">\n"
        if c.curve.isEmpty {
            s += absent("No decoding curve: " + (c.curveProblem ?? "the cross-validation gave no rows") + ".")
        } else {
            var chart = SVGChart(xLabel: "trial length (s)", yLabel: "accuracy")
            chart.identifier = "curve-\(row.step)"
            chart.width = 460
            chart.height = 290
            chart.yRange = 0...1
            chart.yPercent = true
            chart.xRange = 0...(c.curve.map(\.seconds).max() ?? 1)
            chart.series = [
                .init(name: "accuracy", color: SVGChart.palette[0], points: c.curve.map { ($0.seconds, $0.accuracy) }, markers: true),
                .init(name: "predicted error", color: SVGChart.palette[1], points: c.curve.map { ($0.seconds, $0.predictedError) }, dashed: true),
            ]
            if c.chance >= 0.02 { chart.rules = [.init(y: c.chance, label: "chance")] }
            chart.summary = "Decoding curve: accuracy by trial length"
            let last = c.curve[c.curve.count - 1]
            s += figure(chart.svg, caption: "Decoding curve: 5 chronological folds, each trial scored by a model that never saw it. "
                        + fmt("%.0f %%", last.accuracy * 100) + " at " + fmt("%.1f s", last.seconds) + "; chance "
                        + fmt(c.chance >= 0.02 ? "%.0f %%" : "%.1f %%", c.chance * 100) + " (each trial scored against all \(c.classes) codes the calibration showed).")
        }
        var kernels = SVGChart(xLabel: "lag after the stimulus event (ms)", yLabel: "response (a.u.)")
        kernels.identifier = "kernels-\(row.step)"
        kernels.width = 460
        kernels.height = 290
        kernels.series = c.kernels.enumerated().map { k, kernel in
            SVGChart.Series(name: k < c.eventLabels.count ? c.eventLabels[k] : "event \(k + 1)", color: SVGChart.palette[k % SVGChart.palette.count],
                            points: kernel.enumerated().map { (c.lagMilliseconds($0.offset), $0.element) })
        }
        kernels.summary = "Response kernels per event"
        s += figure(kernels.svg, caption: "Response kernels of the model fitted on every calibration trial, one per event type.")
        return s + "</div>\n"
    }

    var signalSection: String {
        section("signal", "Signal quality", part(report.signalQuality) { q in
            var s = ""
            let span = max(q.end - q.origin, 1)
            let minutes = span > 300
            let unit = minutes ? 60.0 : 1
            var chart = SVGChart(xLabel: "time since the session started (\(minutes ? "min" : "s"))", yLabel: "noise fraction")
            chart.identifier = "signal"
            chart.yRange = 0...1
            chart.xRange = 0...(span / unit)
            chart.height = 300
            let lines = q.trace.binned(into: 400, over: q.origin...q.end)
            chart.series = lines.enumerated().map { c, points in
                SVGChart.Series(name: "channel \(c + 1)", color: SVGChart.palette[c % SVGChart.palette.count],
                                points: points.map { (($0.time - q.origin) / unit, $0.quality) })
            }
            chart.spans = report.steps.map { step in
                SVGChart.Span(from: (step.startTime - q.origin) / unit, to: (step.startTime + step.duration - q.origin) / unit,
                              label: "\(step.number)", title: "\(step.number) \(step.name) (\(step.kind))")
            }
            chart.summary = "Noise fraction per channel over the session"
            s += figure(chart.svg, caption: "The decoder's signal quality per channel (noise power over noise and signal power in the last 2 s: "
                        + "0 clean, 1 all noise), \(q.trace.samples.count) assessments averaged into at most 400 points. "
                        + "Shaded: the steps, numbered as in the step table.")
            s += signalTable(q)
            return s
        })
    }

    /// Median noise fraction per channel during each step that has assessments.
    func signalTable(_ q: SessionReport.SignalQuality) -> String {
        let channels = q.trace.channels
        let rows = report.steps.map { ($0, q.trace.medians(from: $0.startTime, to: $0.startTime + $0.duration)) }
            .filter { $0.1.contains { $0 != nil } }
        guard !rows.isEmpty, channels > 0 else { return "" }
        var flagged = false
        let lines = rows.map { step, medians in
            "<tr><td>\(step.number) \(e(step.name))</td>" + medians.enumerated().map { c, value in
                guard let value else { return "<td class=\"num\">–</td>" }
                // Judged on the value as shown, so a red 0.90 never sits under a limit of 0.90.
                let over = q.limits[c + 1].map { (value * 100).rounded() / 100 > $0 } ?? false
                flagged = flagged || over
                return "<td class=\"num\(over ? " bad" : "")\">" + fmt("%.2f", value) + "</td>"
            }.joined() + "</tr>\n"
        }
        var s = table([.text("Median noise during step")] + (1...channels).map { .number("ch \($0)") }, class: "compact", rows: lines)
        if flagged { s += "<p class=\"note\">In red: above the channel's limit in the signal check.</p>\n" }
        return s
    }

    var noControlSection: String {
        section("no-control", "Looking away: false presses", part(report.noControl) { rows in
            var s = ""
            var lines = rows.map { row in
                "<tr><td class=\"num\">\(row.step)</td><td>\(e(row.name))</td><td class=\"num\">\(fmt("%.1f", row.seconds))</td>"
                    + "<td class=\"num\">\(row.falsePresses)</td><td class=\"num strong\">\(fmt("%.2f", row.perMinute))</td></tr>\n"
            }
            if rows.count > 1, let rate = report.falsePressesPerMinute {
                lines.append("<tr class=\"total\"><td></td><td>all</td><td class=\"num\">\(fmt("%.1f", rows.map(\.seconds).reduce(0, +)))</td>"
                    + "<td class=\"num\">\(rows.map(\.falsePresses).reduce(0, +))</td><td class=\"num strong\">\(fmt("%.2f", rate))</td></tr>\n")
            }
            s += table([.text("#"), .text("Step"), .number("Seconds"), .number("False presses"), .number("per minute")], rows: lines)
            s += "<p class=\"note\">The participant looked at none of the keys: every press there is false.</p>\n"
            return s
        })
    }

    var questionnaireSection: String {
        section("questionnaire", "Questionnaire", part(report.answers) { rows in
            var s = ""
            s += table([.text("#"), .text("Question"), .text("Answer"), .text("Scale"), .number("Seconds")], rows: rows.map { row in
                "<tr><td class=\"num\">\(row.step)</td><td>\(e(row.question))</td><td class=\"strong\">\(e(row.answer))</td>"
                    + "<td><small>\(e(row.scale))</small></td><td class=\"num\">\(fmt("%.1f", row.seconds))</td></tr>\n"
            })
            return s
        })
    }

    static let style = """
        :root { color-scheme: light; }
        body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
               color: #1a1a1a; background: #fff; margin: 2rem auto; max-width: 62rem; padding: 0 1.2rem; line-height: 1.45; }
        h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
        h2 { font-size: 1.25rem; margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 2px solid #0072B2; }
        h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
        .lead { margin: 0 0 .8rem; color: #333; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
        dl.facts dt { font-weight: 600; color: #444; }
        dl.facts dd { margin: 0; }
        table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: .4rem 0; }
        th, td { border-bottom: 1px solid #ddd; padding: .3rem .45rem; text-align: left; vertical-align: top; }
        thead th { background: #f1f4f8; border-bottom: 2px solid #bbb; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        td.num { white-space: nowrap; }
        thead th { font-size: .82rem; line-height: 1.2; }
        .strong { font-weight: 600; }
        table.compact { width: auto; font-size: .82rem; }
        td.bad { color: #b00020; font-weight: 600; }
        tr.total td { border-top: 2px solid #bbb; font-weight: 600; }
        .outcome { padding: 0 .35rem; border-radius: .2rem; font-size: .85rem; border: 1px solid #999; }
        .outcome.done, .outcome.passed { background: #e3f2e8; border-color: #2e7d4f; }
        .outcome.failed, .outcome.timeout { background: #fde8e8; border-color: #b00020; }
        .outcome.skipped { background: #f1f1f1; border-color: #777; }
        figure { margin: .8rem 0; break-inside: avoid; page-break-inside: avoid; }
        figure svg { width: 100%; height: auto; max-width: 100%; }
        figcaption { font-size: .85rem; color: #444; margin-top: .2rem; }
        .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1rem; }
        .absent { font-style: italic; color: #555; background: #f7f7f7; border-left: 4px solid #bbb; padding: .4rem .7rem; }
        .note { font-size: .85rem; color: #444; }
        code { font-size: .85em; }
        footer { margin-top: 2.5rem; font-size: .8rem; color: #666; border-top: 1px solid #ddd; padding-top: .5rem; }
        @media print {
          body { margin: 0; max-width: none; font-size: 10pt; }
          h2 { break-after: avoid; page-break-after: avoid; }
          table, tr { break-inside: avoid; page-break-inside: avoid; }
          thead th { background: #eee; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          .outcome, .absent { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }
        @page { size: A4; margin: 15mm; }
        """
}
