import Foundation
import NoiseTagging

/// The accuracy/speed trade-off of a ``ParameterSweep`` as an SVG page:
/// mean selection time across, accuracy (or, without known targets, the
/// share of trials pressed) up, one labelled point per swept value, the
/// logged session as a red cross.
public struct SweepPlot {
    let title: String
    let points: [ParameterSweep.Point]
    let logged: OutcomeTotals
    private let width = 640.0, height = 420.0, left = 70.0, top = 50.0, plotWidth = 520.0, plotHeight = 300.0

    /// Creates the plot; a `redecoded` sweep says so in its title.
    public init(sweep: ParameterSweep, points: [ParameterSweep.Point], logged: OutcomeTotals, redecoded: Bool = false) {
        title = sweep.title.rawValue + (redecoded ? " sweep, re-decoded" : " sweep")
        self.points = points
        self.logged = logged
    }

    /// True when the targets were known, so the vertical axis is accuracy.
    var usesAccuracy: Bool { points.contains { $0.totals.accuracy != nil } }

    func yValue(_ totals: OutcomeTotals) -> Double? {
        usesAccuracy ? totals.accuracy : (totals.trials > 0 ? Double(totals.presses) / Double(totals.trials) : nil)
    }

    /// The SVG text.
    public var svg: String {
        let usable = points.compactMap { p -> (Double, Double, Double)? in
            guard let t = p.totals.meanSelectionTime, let y = yValue(p.totals) else { return nil }
            return (p.value, t, y)
        }
        let loggedPoint = logged.meanSelectionTime.flatMap { t in yValue(logged).map { (t, $0) } }
        let times = usable.map(\.1) + (loggedPoint.map { [$0.0] } ?? [])
        let maxT = max((times.max() ?? 1) * 1.1, 0.1)
        let minY = min(usable.map(\.2).min() ?? 0, loggedPoint?.1 ?? 1, 0.9) - 0.05
        let yFloor = max(0, (minY * 10).rounded(.down) / 10)
        func x(_ t: Double) -> Double { left + t / maxT * plotWidth }
        func y(_ v: Double) -> Double { top + (1 - (v - yFloor) / (1 - yFloor)) * plotHeight }
        var body = "<text x=\"\(left)\" y=\"\(top - 20)\" font-size=\"14\" font-weight=\"bold\">What if: \(title)</text>\n"
        body += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
        for k in 0...5 {
            let t = maxT * Double(k) / 5, v = yFloor + (1 - yFloor) * Double(k) / 5
            body += "<text x=\"\(f(x(t)))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\">\(String(format: "%.2f", t))</text>\n"
            body += "<text x=\"\(f(left - 6))\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\">\(String(format: "%.0f%%", v * 100))</text>\n"
            body += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" stroke=\"#eee\"/>\n"
        }
        body += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(top + plotHeight + 36))\" text-anchor=\"middle\">mean selection time (s)</text>\n"
        body += "<text transform=\"translate(18,\(f(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">"
            + (usesAccuracy ? "accuracy (presses on the target)" : "trials ending in a press") + "</text>\n"
        if usable.count > 1 {
            body += "<polyline points=\"" + usable.map { "\(f(x($0.1))),\(f(y($0.2)))" }.joined(separator: " ")
                + "\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n"
        }
        // Labels only where they do not overlap an earlier one.
        var labelled: [(Double, Double)] = []
        for point in usable {
            let px = x(point.1), py = y(point.2)
            body += "<circle cx=\"\(f(px))\" cy=\"\(f(py))\" r=\"3\" fill=\"#1f77b4\"/>\n"
            if labelled.allSatisfy({ abs($0.0 - px) > 28 || abs($0.1 - py) > 12 }) {
                labelled.append((px, py))
                body += "<text x=\"\(f(px + 5))\" y=\"\(f(py - 5))\" font-size=\"10\">\(String(format: "%g", point.0))</text>\n"
            }
        }
        if let (t, v) = loggedPoint {
            let cx = x(t), cy = y(v)
            body += "<path d=\"M\(f(cx - 5)),\(f(cy - 5)) L\(f(cx + 5)),\(f(cy + 5)) M\(f(cx - 5)),\(f(cy + 5)) L\(f(cx + 5)),\(f(cy - 5))\" stroke=\"#d62728\" stroke-width=\"2\"/>\n"
            body += "<text x=\"\(f(cx + 7))\" y=\"\(f(cy + 14))\" font-size=\"10\" fill=\"#d62728\">logged</text>\n"
        }
        if usable.isEmpty {
            body += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(top + plotHeight / 2))\" text-anchor=\"middle\">no value of the sweep gave a press</text>\n"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            \(body)</svg>

            """
    }

    private func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
