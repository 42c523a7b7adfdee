import Foundation

/// A small x–y chart as inline SVG (no script, no fonts, no external
/// references, so it prints and works offline): labelled axes with round
/// ticks, line series, bars, horizontal reference lines and shaded,
/// numbered spans behind the data, and a legend under the plot. Every data
/// series and the bars are `<path>`s (class `series`, `bars`), so a test
/// can find them.
///
/// ```swift
/// var chart = SVGChart(xLabel: "trial length (s)", yLabel: "accuracy")
/// chart.yRange = 0...1
/// chart.series.append(.init(name: "5-fold", color: SVGChart.palette[0], points: [(0.5, 0.7), (1, 0.9), (2, 1)]))
/// chart.rules.append(.init(y: 1.0 / 28, label: "chance"))
/// let svg = chart.svg     // "<svg viewBox=…>…</svg>", ready to paste into HTML
/// ```
public struct SVGChart: Sendable {
    /// A line through points, in x order.
    public struct Series: Sendable {
        /// The legend's text (empty: not in the legend).
        public var name: String
        /// A CSS colour.
        public var color: String
        /// The points (x, y).
        public var points: [(x: Double, y: Double)]
        /// Drawn dashed.
        public var dashed = false
        /// Draws a dot at every point too (for curves with few points).
        public var markers = false

        /// A series from its parts.
        public init(name: String, color: String, points: [(x: Double, y: Double)], dashed: Bool = false, markers: Bool = false) {
            (self.name, self.color, self.points, self.dashed, self.markers) = (name, color, points, dashed, markers)
        }
    }

    /// A bar from `from` to `to` along x, `value` high.
    public struct Bar: Sendable {
        /// Where it starts and ends along x.
        public var from: Double, to: Double
        /// Its height.
        public var value: Double

        /// A bar from its parts.
        public init(from: Double, to: Double, value: Double) { (self.from, self.to, self.value) = (from, to, value) }
    }

    /// A shaded stretch along x behind the data, labelled at its top.
    public struct Span: Sendable {
        /// Where it starts and ends along x.
        public var from: Double, to: Double
        /// A short label (a step number), left out where the span is too narrow for it.
        public var label: String
        /// A tooltip (the step's name).
        public var title: String

        /// A span from its parts.
        public init(from: Double, to: Double, label: String, title: String = "") {
            (self.from, self.to, self.label, self.title) = (from, to, label, title)
        }
    }

    /// A horizontal dashed line with a label at its right end.
    public struct Rule: Sendable {
        /// Its height.
        public var y: Double
        /// Its label.
        public var label: String

        /// A rule from its parts.
        public init(y: Double, label: String) { (self.y, self.label) = (y, label) }
    }

    /// Colours that stay apart for colour-blind readers and in grey print
    /// (Okabe & Ito's set without its yellow, then two more).
    public static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D31",
                                 "#7F7F7F", "#9E1F63"]

    /// The x axis's label.
    public var xLabel: String
    /// The y axis's label.
    public var yLabel: String
    /// The x range shown (nil: the data's, widened to round ticks).
    public var xRange: ClosedRange<Double>?
    /// The y range shown (nil: the data's, from 0 when all are positive, widened to round ticks).
    public var yRange: ClosedRange<Double>?
    /// Tick labels on the y axis as percentages (0.5 → 50 %).
    public var yPercent = false
    /// Ticks on the y axis at whole numbers only (counts).
    public var yWholeNumbers = false
    /// The line series.
    public var series: [Series] = []
    /// The bars.
    public var bars: [Bar] = []
    /// The bars' colour.
    public var barColor = SVGChart.palette[0]
    /// The shaded spans.
    public var spans: [Span] = []
    /// The reference lines.
    public var rules: [Rule] = []
    /// A line of text for screen readers and the tooltip.
    public var summary = ""
    /// Unique among the charts of one page (names its clip path).
    public var identifier = "chart"
    /// The whole chart's size in SVG units (it scales to the page's width).
    public var width = 760.0, height = 300.0

    private let left = 62.0, right = 20.0, top = 22.0

    /// An empty chart with its axis labels.
    public init(xLabel: String, yLabel: String) {
        self.xLabel = xLabel
        self.yLabel = yLabel
    }

    private var legendItems: [Series] { series.filter { !$0.name.isEmpty } }

    /// Legend rows: items laid out left to right, wrapping at the plot's width.
    private func legendRows(plotWidth: Double) -> [[(item: Series, x: Double)]] {
        var rows: [[(item: Series, x: Double)]] = [[]]
        var x = 0.0
        for item in legendItems {
            let itemWidth = 30 + 6.6 * Double(item.name.count) + 16
            if x > 0, x + itemWidth > plotWidth {
                rows.append([])
                x = 0
            }
            rows[rows.count - 1].append((item, x))
            x += itemWidth
        }
        return rows.filter { !$0.isEmpty }
    }

    /// The chart as an `<svg>` element.
    public var svg: String {
        let plotWidth = width - left - right
        let rows = legendRows(plotWidth: plotWidth)
        let totalHeight = height + 20 * Double(rows.count)
        let plotHeight = height - top - (rows.isEmpty ? 46 : 58)
        let xs = series.flatMap { $0.points.map(\.x) } + bars.flatMap { [$0.from, $0.to] } + spans.flatMap { [$0.from, $0.to] }
        let ys = series.flatMap { $0.points.map(\.y) } + bars.map(\.value) + [0].filter { _ in !bars.isEmpty } + rules.map(\.y)
        let xAxis = Self.axis(xRange ?? Self.range(of: xs, fromZero: false), fixed: xRange != nil)
        let yAxis = Self.axis(yRange ?? Self.range(of: ys, fromZero: true), fixed: yRange != nil, minimumStep: yWholeNumbers ? 1 : 0)
        func px(_ x: Double) -> Double { left + (x - xAxis.low) / (xAxis.high - xAxis.low) * plotWidth }
        func py(_ y: Double) -> Double { top + (1 - (y - yAxis.low) / (yAxis.high - yAxis.low)) * plotHeight }
        func clampX(_ x: Double) -> Double { min(max(px(x), left), left + plotWidth) }

        var s = "<svg class=\"chart\" viewBox=\"0 0 \(f(width)) \(f(totalHeight))\" width=\"\(f(width))\" height=\"\(f(totalHeight))\" "
            + "role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n"
        if !summary.isEmpty { s += "<title>\(Self.escaped(summary))</title>\n" }
        s += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        // Spans behind everything, alternating shades, numbered at the top.
        for (i, span) in spans.enumerated() {
            let x0 = clampX(span.from), x1 = clampX(span.to)
            guard x1 > x0 else { continue }
            s += "<rect class=\"span\" x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(x1 - x0))\" height=\"\(f(plotHeight))\" "
                + "fill=\"\(i % 2 == 0 ? "#ececec" : "#f7f7f7")\">"
                + (span.title.isEmpty ? "" : "<title>\(Self.escaped(span.title))</title>") + "</rect>\n"
            if x1 - x0 >= 7 * Double(span.label.count) + 4 {
                s += "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(top + 13))\" text-anchor=\"middle\" fill=\"#555\" font-size=\"11\">"
                    + "\(Self.escaped(span.label))</text>\n"
            }
        }
        // Grid and ticks.
        for tick in yAxis.ticks {
            let y = py(tick)
            s += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(y))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>\n"
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(yPercent ? Self.percent(tick) : Self.number(tick, step: yAxis.step))</text>\n"
        }
        for tick in xAxis.ticks {
            let x = px(tick)
            s += "<line x1=\"\(f(x))\" x2=\"\(f(x))\" y1=\"\(f(top + plotHeight))\" y2=\"\(f(top + plotHeight + 4))\" stroke=\"#666\"/>\n"
            s += "<text x=\"\(f(x))\" y=\"\(f(top + plotHeight + 17))\" text-anchor=\"middle\">\(Self.number(tick, step: xAxis.step))</text>\n"
        }
        if yAxis.low < 0, yAxis.high > 0 {
            s += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(py(0)))\" y2=\"\(f(py(0)))\" stroke=\"#888\"/>\n"
        }
        // Bars, as one path.
        if !bars.isEmpty {
            let d = bars.filter { $0.value > 0 && $0.to > $0.from }.map { bar in
                let x0 = clampX(bar.from) + 1, x1 = clampX(bar.to) - 1, y0 = py(max(yAxis.low, 0)), y1 = py(min(bar.value, yAxis.high))
                return "M\(f(x0)) \(f(y0))V\(f(y1))H\(f(max(x1, x0 + 1)))V\(f(y0))Z"
            }.joined()
            s += "<path class=\"bars\" d=\"\(d.isEmpty ? "M0 0" : d)\" fill=\"\(barColor)\" fill-opacity=\"0.85\"/>\n"
        }
        // Reference lines.
        for rule in rules where rule.y >= yAxis.low && rule.y <= yAxis.high {
            let y = py(rule.y)
            s += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(y))\" y2=\"\(f(y))\" stroke=\"#444\" stroke-dasharray=\"4,3\"/>\n"
            s += "<text x=\"\(f(left + plotWidth - 4))\" y=\"\(f(y - 4))\" text-anchor=\"end\" fill=\"#444\">\(Self.escaped(rule.label))</text>\n"
        }
        // Series, clipped to the plot.
        s += "<clipPath id=\"\(identifier)-plot\"><rect x=\"\(f(left))\" y=\"\(f(top - 1))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight + 2))\"/></clipPath>\n"
        for item in series where !item.points.isEmpty {
            let d = item.points.enumerated().map { i, p in "\(i == 0 ? "M" : "L")\(f(px(p.x))) \(f(py(p.y)))" }.joined()
            s += "<path class=\"series\" d=\"\(d)\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1.8\" stroke-linejoin=\"round\""
                + (item.dashed ? " stroke-dasharray=\"6,4\"" : "") + " clip-path=\"url(#\(identifier)-plot)\"/>\n"
            if item.markers {
                for p in item.points {
                    s += "<circle cx=\"\(f(px(p.x)))\" cy=\"\(f(py(p.y)))\" r=\"3\" fill=\"\(item.color)\"/>\n"
                }
            }
        }
        // Frame and axis labels.
        s += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"#666\"/>\n"
        s += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(top + plotHeight + 34))\" text-anchor=\"middle\">\(Self.escaped(xLabel))</text>\n"
        s += "<text transform=\"translate(16 \(f(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escaped(yLabel))</text>\n"
        // Legend rows under the axis label.
        for (r, row) in rows.enumerated() {
            let y = height - 2 + 20 * Double(r)
            for (item, x) in row {
                let x0 = left + x
                s += "<line x1=\"\(f(x0))\" x2=\"\(f(x0 + 24))\" y1=\"\(f(y - 4))\" y2=\"\(f(y - 4))\" stroke=\"\(item.color)\" stroke-width=\"2.5\""
                    + (item.dashed ? " stroke-dasharray=\"6,4\"" : "") + "/>\n"
                s += "<text x=\"\(f(x0 + 30))\" y=\"\(f(y))\">\(Self.escaped(item.name))</text>\n"
            }
        }
        return s + "</svg>"
    }

    // MARK: Axes

    /// An axis: its shown range and its round ticks.
    struct Axis {
        var low: Double, high: Double, step: Double, ticks: [Double]
    }

    /// The data's range; a single value or none gets a unit around it.
    static func range(of values: [Double], fromZero: Bool) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard var low = finite.min(), var high = finite.max() else { return 0...1 }
        if fromZero { low = min(low, 0); high = max(high, 0) }
        if high - low < 1e-12 { return (low - 0.5)...(high + 0.5) }
        return low...high
    }

    /// Round ticks (1, 2, 2.5 or 5 × 10ⁿ apart, about six of them) over
    /// `range`, widened to the outer ticks unless `fixed`.
    static func axis(_ range: ClosedRange<Double>, fixed: Bool, minimumStep: Double = 0) -> Axis {
        let step = max(niceStep((range.upperBound - range.lowerBound) / 5), minimumStep)
        let low = fixed ? range.lowerBound : (range.lowerBound / step).rounded(.down) * step
        let high = fixed ? range.upperBound : (range.upperBound / step).rounded(.up) * step
        var ticks: [Double] = []
        var k = (low / step - 1e-9).rounded(.up)
        while k * step <= high + step * 1e-9 {
            ticks.append(abs(k * step) < step * 1e-9 ? 0 : k * step)
            k += 1
        }
        return Axis(low: low, high: max(high, low + step * 1e-6), step: step, ticks: ticks)
    }

    /// The round number (1, 2, 2.5 or 5 × 10ⁿ) nearest above `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        for factor in [1, 2, 2.5, 5, 10] where factor * magnitude >= raw * (1 - 1e-9) { return factor * magnitude }
        return 10 * magnitude
    }

    /// A tick label with as many decimals as the step needs.
    static func number(_ value: Double, step: Double) -> String {
        let decimals = (0...6).first { d in
            let scaled = step * pow(10, Double(d))
            return abs(scaled - scaled.rounded()) < 1e-6 * max(1, scaled)
        } ?? 6
        return String(format: "%.\(decimals)f", value).replacingOccurrences(of: "-", with: "−")
    }

    static func percent(_ value: Double) -> String { String(format: "%.0f %%", value * 100) }

    /// Text made safe inside SVG and HTML.
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
