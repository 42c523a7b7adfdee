import Decoding
import Demo
import NoiseTagging
import TerminalUI

/// A study session in full screen, drawn every frame from the scenario:
/// the engine's header; a line naming the step ("step 3 of 7: copySpell —
/// copy HELLO") and what the participant does now; the text asked for and
/// typed; then the keyboard (calibration, spelling, no-control), the signal
/// view (signal check), or a box with the instructions, the break's
/// countdown or the current question and its answer keys; the keys on the
/// last row.
public final class SessionScreen: TerminalScene {
    /// The session shown.
    public let scenario: SessionScenario
    /// Where the signal view's EEG comes from.
    public var snapshot: () -> SignalSnapshot
    private let signalView = SignalView()
    private let keyboardLayout: ButtonLayout

    /// A screen for `scenario`.
    public init(scenario: SessionScenario, snapshot: @escaping () -> SignalSnapshot) {
        self.scenario = scenario
        self.snapshot = snapshot
        keyboardLayout = ButtonLayout(buttons: scenario.session.keyboard.keys)
    }

    /// The keyboard plus header, three text lines and the footer.
    public var minimumSize: TerminalSize {
        TerminalSize(columns: max(60, keyboardLayout.contentSize.columns + 4), rows: keyboardLayout.contentSize.rows + 6)
    }

    /// Draws the frame.
    public func draw(on screen: TerminalScreen, missedFrames: Int) {
        let controller = scenario.session.controller
        let now = controller.clock.now
        let background = TerminalTheme.background
        screen.clear(to: TerminalCell(character: " ", foreground: TerminalTheme.text, background: background))
        TerminalHeader(controller: controller, missedFrames: missedFrames).draw(on: screen, row: 0)
        let total = scenario.plan.steps.count
        let title = scenario.currentStep.map { "Step \(scenario.index + 1) of \(total): \($0.name)" } ?? "Session over"
        screen.write(" " + title + " — " + status(now: now), row: 1, column: 0, foreground: TerminalTheme.accent,
                     background: background, maxWidth: screen.size.columns - 1)
        if let notice = scenario.notices.last {
            screen.write(" " + notice, row: 2, column: 0, foreground: TerminalTheme.warning, background: background,
                         maxWidth: screen.size.columns - 1)
        }
        let text = scenario.spellingText
        if !text.isEmpty {
            let typed = scenario.session.keyboard.typed
            var x = screen.write(" Text ", row: 3, column: 0, foreground: TerminalTheme.dim, background: background)
            x += screen.write(text, row: 3, column: x, foreground: TerminalTheme.dim, background: background)
            x += screen.write("   Typed ", row: 3, column: x, foreground: TerminalTheme.dim, background: background)
            screen.write(typed, row: 3, column: x, foreground: text.hasPrefix(typed) ? TerminalTheme.good : TerminalTheme.warning,
                         background: background)
        }
        let region = CellRect(row: 4, column: 0, width: screen.size.columns, height: max(0, screen.size.rows - 5))
        switch scenario.phase {
        case .signalCheck:
            signalView.draw(snapshot(), on: screen, in: region)
        case .instructions:
            if case .instructions(let text, _, _)? = scenario.currentStep?.kind { box(wrap(text, width: 60), on: screen, in: region) }
        case .resting(let until):
            box(["Break", "", "Rest your eyes — the session goes on in \(Int((until - now).rounded(.up))) s"], on: screen, in: region)
        case .question(let item, _):
            if case .questionnaire(let items)? = scenario.currentStep?.kind { box(question(items[item], number: item + 1, of: items.count), on: screen, in: region) }
        case .restoring:
            box(["Resuming the session", "", "The decoder is fitted again on the saved calibration …"], on: screen, in: region)
        case .fitting:
            keyboardLayout.draw(on: screen, in: region, palette: StimulusPalette(settings: controller.settings), feedbackMode: feedbackMode)
            box(["Fitting the decoder on the calibration trials …"], on: screen, in: region)
        case .finished:
            box(["The session is over. Thank you!", "", "q quits"], on: screen, in: region)
        default:
            keyboardLayout.draw(on: screen, in: region, palette: StimulusPalette(settings: controller.settings), feedbackMode: feedbackMode)
        }
        TerminalFooter(keys: footerKeys).draw(on: screen, row: screen.size.rows - 1)
    }

    /// Passes the participant's keys to the scenario (the runner handles `q` and Ctrl-C).
    public func handle(key: UInt8) {
        if case .signalCheck = scenario.phase, key != 13, key != 10, signalView.handle(key: key) { return }
        scenario.handle(key: key)
    }

    private var footerKeys: [(String, String)] {
        switch scenario.phase {
        case .instructions(nil): return [("any key", "continue"), ("q", "quit")]
        case .signalCheck: return [("⏎", "judge now"), ("+-a", "zoom"), ("q", "quit")]
        case .resting: return [("⏎", "skip"), ("q", "quit")]
        case .question(let item, _):
            if case .questionnaire(let items)? = scenario.currentStep?.kind { return [("1-\(items[item].scale)", "answer"), ("q", "quit")] }
            return [("q", "quit")]
        default: return [("q", "quit")]
        }
    }

    private func status(now: Double) -> String {
        switch scenario.phase {
        case .restoring: return "the decoder is being fitted again"
        case .instructions(let until): return until.map { "continues in \(Int(($0 - now).rounded(.up))) s" } ?? "press a key to continue"
        case .signalCheck(let until, let attempt): return "signal check\(attempt > 1 ? " (attempt \(attempt))" : ""), \(Int((until - now).rounded(.up))) s left"
        case .calibrating: return "look at the highlighted key"
        case .fitting: return "the decoder is fitting"
        case .spelling(let until): return "type the text by looking at the keys (\(Int((until - now).rounded(.up))) s left)"
        case .noControl(let until): return "look away from the keys (\(Int((until - now).rounded(.up))) s left)"
        case .resting: return "break"
        case .question: return "answer with the number keys"
        case .closing: return "finishing the step"
        case .finished: return "done"
        }
    }

    private func question(_ item: QuestionnaireItem, number: Int, of count: Int) -> [String] {
        var lines = ["Question \(number) of \(count)", ""] + wrap(item.question, width: 60) + [""]
        switch item.style {
        case .choice:
            lines += item.labels.enumerated().map { "\($0.offset + 1)  \($0.element)" }
        case .likert:
            let points = (1...item.scale).map(String.init).joined(separator: "  ")
            lines.append(item.labels.count == 2 ? "\(item.labels[0])  \(points)  \(item.labels[1])" : points)
        }
        return lines
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }

    private func box(_ lines: [String], on screen: TerminalScreen, in region: CellRect) {
        let width = min(region.width, (lines.map(\.count).max() ?? 0) + 4)
        let height = min(region.height, lines.count + 2)
        let rect = CellRect(row: region.row + max(0, (region.height - height) / 2), column: region.column + max(0, (region.width - width) / 2),
                            width: width, height: height)
        screen.fill(rect, with: TerminalTheme.boxBackground, foreground: TerminalTheme.text)
        for (index, line) in lines.enumerated() where index + 1 < rect.height {
            screen.write(line, row: rect.row + 1 + index, column: rect.column + 2, foreground: index == 0 ? TerminalTheme.accent : TerminalTheme.text,
                         background: TerminalTheme.boxBackground, maxWidth: rect.width - 3)
        }
    }

    private var feedbackMode: ClickFeedbackMode? {
        ClickFeedbackMode(rawValue: scenario.session.controller.settings.textFor(.clickFeedbackMode))
    }
}
