import NoiseTagging
#if canImport(Glibc)
import Glibc
#endif

/// The header line's content: mode, trial and phase, decoder state,
/// missed frames, and the leading control with its certainty as a bar
/// against the threshold. A plain value the demo fills each frame; ``draw(on:row:)``
/// paints it.
///
/// Drawn as: ` Test │ trial 3 flicker │ decoder connected │ missed 0 │ 7 ██|░░░░░ 0.81/0.90`
/// (the bar is in decades of error probability: see ``barPosition(of:)``).
///
/// ```swift
/// var header = TerminalHeader(controller: controller, missedFrames: driver.missedFrames)
/// header.leading = ("7", 0.81)
/// header.draw(on: screen, row: 0)
/// ```
public struct TerminalHeader: Equatable {
    /// The engine mode's name.
    public var mode: String
    /// The running trial's number, nil between trials.
    public var trial: Int?
    /// The running trial's phase name, nil between trials.
    public var phase: String?
    /// The decoder's state in words ("connected", "none", …).
    public var decoder: String
    /// The most likely control and its certainty (0…1), nil when unknown.
    public var leading: (control: String, certainty: Double)?
    /// `certaintyRequiredForPress`.
    public var threshold: Double
    /// Frames missed so far (late, skipped, or not written in time).
    public var missedFrames: Int

    /// Width of the certainty bar, cells.
    public static let barWidth = 8
    /// The header's background colour.
    public static let background = TerminalRGB(red: 28, green: 35, blue: 51)
    /// The header's text colour.
    public static let foreground = TerminalRGB(red: 220, green: 225, blue: 235)
    static let dim = TerminalTheme.dim
    static let below = TerminalRGB(red: 230, green: 190, blue: 60)
    static let above = TerminalRGB(red: 80, green: 200, blue: 100)
    static let thresholdMark = TerminalRGB(red: 240, green: 80, blue: 80)

    /// Creates a header from its parts.
    public init(mode: String, trial: Int?, phase: String?, decoder: String,
                leading: (control: String, certainty: Double)?, threshold: Double, missedFrames: Int) {
        self.mode = mode
        self.trial = trial
        self.phase = phase
        self.decoder = decoder
        self.leading = leading
        self.threshold = threshold
        self.missedFrames = missedFrames
    }

    /// Fills mode, trial, phase, decoder state and threshold from `controller`.
    public init(controller: NoiseTagController, missedFrames: Int,
                leading: (control: String, certainty: Double)? = nil) {
        self.init(mode: controller.mode.rawValue,
                  trial: controller.trialInProgress ? controller.trialsStarted : nil,
                  phase: controller.currentPhase?.rawValue,
                  decoder: controller.decoderConnection.rawValue,
                  leading: leading,
                  threshold: controller.settings.doubleFor(.certaintyRequiredForPress),
                  missedFrames: missedFrames)
    }

    /// Equal when every field is (the leading control and certainty compared by value).
    public static func == (a: TerminalHeader, b: TerminalHeader) -> Bool {
        a.mode == b.mode && a.trial == b.trial && a.phase == b.phase && a.decoder == b.decoder
            && a.leading?.control == b.leading?.control && a.leading?.certainty == b.leading?.certainty
            && a.threshold == b.threshold && a.missedFrames == b.missedFrames
    }

    /// Paints the header across `row` (clipped at the screen's edge).
    public func draw(on screen: TerminalScreen, row: Int) {
        let fg = Self.foreground
        var line = TerminalHeaderLine(screen: screen, row: row)
        func text(_ s: String, _ color: TerminalRGB = fg) { line.text(s, color) }
        func separator() { line.separator() }
        text(mode)
        separator()
        if let trial {
            text("trial \(trial)")
            if let phase { text(" " + phase) }
        } else {
            text("between trials", Self.dim)
        }
        separator()
        text("decoder " + decoder)
        separator()
        // Missed frames before the prediction, so that an 80-column window cuts only the prediction's numbers.
        text("missed \(missedFrames)", missedFrames > 0 ? Self.below : fg)
        separator()
        if let leading {
            text(leading.control + " ")
            let certainty = min(max(leading.certainty.isFinite ? leading.certainty : 0, 0), 1)
            let filled = Int((Self.barPosition(of: certainty) * Double(Self.barWidth)).rounded())
            let limit = threshold.isNaN ? 1 : min(max(threshold, 0), 1)
            let mark = min(Self.barWidth - 1, Int((Self.barPosition(of: limit) * Double(Self.barWidth)).rounded(.down)))
            let barColor = certainty >= limit ? Self.above : Self.below
            for cell in 0..<Self.barWidth {
                let character: Unicode.Scalar = cell == mark ? "|" : (cell < filled ? "█" : "░")
                let color = cell == mark ? Self.thresholdMark : (cell < filled ? barColor : Self.dim)
                line.put(character, color)
            }
            // Near 1, four digits without the leading zero (".9951/.9921"), to fit 80 columns; cut, not
            // rounded, so that a certainty or threshold below 1 never reads "1.0000".
            if limit >= 0.99 {
                func compact(_ value: Double) -> String {
                    let digits = Self.fixed(value < 1 ? (value * 10_000).rounded(.down) / 10_000 : value, 4)
                    return digits.hasPrefix("0.") ? String(digits.dropFirst()) : digits
                }
                text(" " + compact(certainty) + "/" + compact(limit))
            } else {
                text(" " + Self.fixed(certainty, 2) + "/" + Self.fixed(limit, 2))
            }
        } else {
            text("no prediction", Self.dim)
        }
    }

    /// Where a certainty sits on the bar, 0…1: on a scale of decades of
    /// error probability, so that 0.9, 0.99, 0.999 and 0.9999 (full) are a
    /// quarter of the bar apart and a threshold such as 0.998 is not lost
    /// at the right edge.
    public static func barPosition(of certainty: Double) -> Double {
        guard certainty.isFinite, certainty > 0 else { return 0 }
        guard certainty < 1 else { return 1 }
        return min(1, max(0, -log10(1 - certainty) / 4))
    }

    /// `0.81` (or `0.9984` with 4 digits) style, without Foundation's formatter (NaN shows as zeros).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        let scale = digits == 4 ? 10_000 : 100
        guard !value.isNaN else { return "0." + String(repeating: "0", count: digits) }
        let units = Int((min(max(value, 0), 9.99) * Double(scale)).rounded())
        let fraction = String(units % scale)
        return "\(units / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
