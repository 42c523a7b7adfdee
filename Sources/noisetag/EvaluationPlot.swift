import Decoding
import Foundation
import Study

/// An SVG page of an offline evaluation: the decoding curve (accuracy and
/// predicted vs actual error over trial length), the estimated responses per
/// event, and the spatial pattern per channel; below them, the settings each
/// fold's selection chose and the mains found, when there are any. With a
/// zero-training replay, a fourth panel: its learning curve (right presses
/// and right classifications at 4 s over the last ten trials, by trial
/// number) beside the supervised
/// decoder's cross-validated accuracy at its longest length.
struct EvaluationPlot {
    let report: EvaluationReport
    let zeroTraining: ZeroTrainingOutcome?
    /// The dataset's channel names, which label the spatial pattern's bars
    /// when there is one per channel (else their numbers from 1), as many
    /// as fit side by side.
    let channelNames: [String]?
    private let panelWidth = 300.0, panelHeight = 220.0, margin = 45.0
    /// Event labels per legend line under the responses panel.
    private let labelsPerRow = 3
    /// Legend lines below a panel's axis label, out of the curves' way: as many as the panel with the most.
    private var legendRows: Int {
        max(zeroTraining == nil ? 2 : 3, (report.kernels.count + labelsPerRow - 1) / labelsPerRow)
    }

    init(report: EvaluationReport, zeroTraining: ZeroTrainingOutcome? = nil, channelNames: [String]? = nil) {
        self.report = report
        self.zeroTraining = zeroTraining
        self.channelNames = channelNames
    }

    var svg: String {
        let width = Double(zeroTraining == nil ? 3 : 4) * (panelWidth + margin) + margin
        var notes = report.choices.enumerated().map { "fold \($0.offset + 1) chose \($0.element.chosen.summary)" + String(format: " (%.2f)", $0.element.accuracy) }
        if let mains = report.mainsFrequency { notes.append(String(format: "mains found at %.0f Hz: notched with its harmonics", mains)) }
        let notesTop = panelHeight + 2 * margin + 24 + 13 * Double(legendRows)
        let height = notesTop - 4 + 15 * Double(notes.count)
        var body = ""
        for (i, note) in notes.enumerated() {
            body += "<text x=\"\(margin)\" y=\"\(notesTop + 15 * Double(i))\">\(note)</text>\n"
        }
        body += panel(index: 0, title: "Decoding curve", xLabel: "trial length (s)", content: curve)
        body += panel(index: 1, title: "Responses (the last fold's model)", xLabel: "lag after the stimulus (ms)", content: kernels)
        body += panel(index: 2, title: "Spatial pattern", xLabel: "channel", content: pattern)
        if zeroTraining != nil {
            body += panel(index: 3, title: "Zero training: learning curve", xLabel: "trial", content: learningCurve)
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            \(body)</svg>

            """
    }

    private func panel(index: Int, title: String, xLabel: String, content: (Double, Double) -> String) -> String {
        let x0 = margin + Double(index) * (panelWidth + margin), y0 = margin
        return """
            <g>
            <text x="\(x0)" y="\(y0 - 12)" font-size="13" font-weight="bold">\(title)</text>
            <rect x="\(x0)" y="\(y0)" width="\(panelWidth)" height="\(panelHeight)" fill="none" stroke="#999"/>
            <text x="\(x0 + panelWidth / 2)" y="\(y0 + panelHeight + 28)" text-anchor="middle">\(xLabel)</text>
            \(content(x0, y0))</g>

            """
    }

    /// Line `row` of a panel's legend, below its axis label, from `column` thirds of the panel across.
    private func legend(_ row: Int, _ text: String, color: String, x0: Double, y0: Double, column: Int = 0) -> String {
        let x = x0 + Double(column) * panelWidth / Double(labelsPerRow)
        return "<text x=\"\(x)\" y=\"\(y0 + panelHeight + 46 + 13 * Double(row))\" fill=\"\(color)\">\(text)</text>\n"
    }

    private func polyline(_ points: [(Double, Double)], color: String, dashed: Bool = false) -> String {
        let text = points.map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
        return "<polyline points=\"\(text)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"5,3\"" : "")/>\n"
    }

    private func curve(_ x0: Double, _ y0: Double) -> String {
        let maxT = max(report.rows.map(\.seconds).max() ?? 1, 0.1)
        func point(_ t: Double, _ v: Double) -> (Double, Double) { (x0 + t / maxT * panelWidth, y0 + (1 - v) * panelHeight) }
        var s = polyline(report.rows.map { point($0.seconds, $0.accuracy) }, color: "#1f77b4")
        s += polyline(report.rows.map { point($0.seconds, $0.actualError) }, color: "#d62728")
        s += polyline(report.rows.map { point($0.seconds, $0.predictedError) }, color: "#d62728", dashed: true)
        for row in report.rows {
            let (x, _) = point(row.seconds, 0)
            s += "<text x=\"\(x)\" y=\"\(y0 + panelHeight + 14)\" text-anchor=\"middle\">\(String(format: "%g", row.seconds))</text>\n"
        }
        s += "<text x=\"\(x0 - 4)\" y=\"\(y0 + 4)\" text-anchor=\"end\">1</text><text x=\"\(x0 - 4)\" y=\"\(y0 + panelHeight)\" text-anchor=\"end\">0</text>\n"
        s += legend(0, "accuracy", color: "#1f77b4", x0: x0, y0: y0)
        s += legend(1, "error: actual (solid), predicted (dashed)", color: "#d62728", x0: x0, y0: y0)
        return s
    }

    private func kernels(_ x0: Double, _ y0: Double) -> String {
        let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
        let peak = max(report.kernels.flatMap { $0 }.map(abs).max() ?? 1, 1e-12)
        let count = report.kernels.first?.count ?? 1
        var s = "<line x1=\"\(x0)\" y1=\"\(y0 + panelHeight / 2)\" x2=\"\(x0 + panelWidth)\" y2=\"\(y0 + panelHeight / 2)\" stroke=\"#ccc\"/>\n"
        for (e, kernel) in report.kernels.enumerated() {
            // Past the palette, colours come round again dashed.
            let color = colors[e % colors.count], dashed = e >= colors.count
            s += polyline(kernel.enumerated().map { i, v in
                (x0 + Double(i) / Double(max(1, count - 1)) * panelWidth, y0 + panelHeight / 2 - v / peak * panelHeight * 0.45)
            }, color: color, dashed: dashed)
            let label = (e < report.eventLabels.count ? report.eventLabels[e] : "event \(e)") + (dashed ? " (dashed)" : "")
            s += legend(e / labelsPerRow, label, color: color, x0: x0, y0: y0, column: e % labelsPerRow)
        }
        let startMs = report.kernelStart * 1000, endMs = startMs + Double(count) / report.sampleRate * 1000
        s += "<text x=\"\(x0)\" y=\"\(y0 + panelHeight + 14)\">\(String(format: "%.0f", startMs))</text>"
        s += "<text x=\"\(x0 + panelWidth)\" y=\"\(y0 + panelHeight + 14)\" text-anchor=\"end\">\(String(format: "%.0f", endMs))</text>\n"
        return s
    }

    private func pattern(_ x0: Double, _ y0: Double) -> String {
        let values = report.spatialPattern
        guard !values.isEmpty else { return "" }
        let peak = max(values.map(abs).max() ?? 1, 1e-12)
        let slot = panelWidth / Double(values.count)
        let names = channelNames.flatMap { $0.count == values.count ? $0 : nil } ?? values.indices.map { "\($0 + 1)" }
        // Every step-th name, so that none overlaps the next (about 7 px a character at this size).
        let step = max(1, Int((Double((names.map(\.count).max() ?? 1) * 7 + 4) / slot).rounded(.up)))
        var s = "<line x1=\"\(x0)\" y1=\"\(y0 + panelHeight / 2)\" x2=\"\(x0 + panelWidth)\" y2=\"\(y0 + panelHeight / 2)\" stroke=\"#ccc\"/>\n"
        for (c, v) in values.enumerated() {
            let h = v / peak * panelHeight * 0.45
            let top = v >= 0 ? y0 + panelHeight / 2 - h : y0 + panelHeight / 2
            s += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" ",
                        x0 + Double(c) * slot + slot * 0.15, top, slot * 0.7, abs(h))
                + "fill=\"\(v >= 0 ? "#2ca02c" : "#9467bd")\"/>\n"
            if c % step == 0 {
                s += "<text x=\"\(x0 + (Double(c) + 0.5) * slot)\" y=\"\(y0 + panelHeight + 14)\" text-anchor=\"middle\">\(SVGChart.escaped(names[c]))</text>\n"
            }
        }
        return s
    }

    /// Right presses and right classifications at 4 s over the last ten trials
    /// (fewer at the start), by trial number.
    private func learningCurve(_ x0: Double, _ y0: Double) -> String {
        guard let trials = zeroTraining?.trials, !trials.isEmpty else { return "" }
        let count = Double(trials.count)
        func point(_ trial: Double, _ v: Double) -> (Double, Double) {
            (x0 + (trial - 1) / max(1, count - 1) * panelWidth, y0 + (1 - v) * panelHeight)
        }
        func lastTen(_ right: (ZeroTrainingOutcome.Trial) -> Bool) -> [(Double, Double)] {
            trials.indices.map { i in
                let window = trials[max(0, i - 9)...i]
                return point(Double(trials[i].trial), Double(window.filter(right).count) / Double(window.count))
            }
        }
        var s = polyline(lastTen { $0.classified == $0.target }, color: "#98df8a", dashed: true)
        s += polyline(lastTen { $0.selected == $0.target }, color: "#2ca02c")
        if let supervised = report.rows.last {
            s += polyline([point(1, supervised.accuracy), point(count, supervised.accuracy)], color: "#1f77b4", dashed: true)
            s += legend(2, "supervised \(report.folds)-fold at \(String(format: "%g", supervised.seconds)) s (dashed)", color: "#1f77b4",
                        x0: x0, y0: y0)
        }
        if let handOver = trials.firstIndex(where: { $0.phase == .supervised }) {
            let (x, _) = point(Double(trials[handOver].trial), 0)
            s += "<line x1=\"\(x)\" y1=\"\(y0)\" x2=\"\(x)\" y2=\"\(y0 + panelHeight)\" stroke=\"#999\" stroke-dasharray=\"2,2\"/>\n"
            s += "<text x=\"\(x + 3)\" y=\"\(y0 + 26)\" fill=\"#666\">hand-over</text>\n"
        }
        s += legend(0, "zero training, last 10 trials:", color: "#2ca02c", x0: x0, y0: y0)
        s += legend(1, "right presses; right at 4 s (dashed)", color: "#2ca02c", x0: x0, y0: y0)
        s += "<text x=\"\(x0)\" y=\"\(y0 + panelHeight + 14)\">1</text>"
        s += "<text x=\"\(x0 + panelWidth)\" y=\"\(y0 + panelHeight + 14)\" text-anchor=\"end\">\(trials.count)</text>\n"
        s += "<text x=\"\(x0 - 4)\" y=\"\(y0 + 4)\" text-anchor=\"end\">1</text><text x=\"\(x0 - 4)\" y=\"\(y0 + panelHeight)\" text-anchor=\"end\">0</text>\n"
        return s
    }
}
