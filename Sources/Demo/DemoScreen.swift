import Decoding
import Foundation
import NoiseTagging
import TerminalUI

/// The demo's full screen, drawn every frame from the scenario's state:
/// the header (mode, trial and phase, decoder, the leading key and its
/// certainty against the threshold, missed frames); a line saying what
/// happens now; the goal and the text typed so far; then the keyboard, or
/// the signal view (during the signal check and on `s`), the calibration
/// results over the keyboard, or the confirmation popup sliding in over
/// it; and the keys on the last row. The developer panel, when open, takes
/// the whole screen and the keys.
///
/// ```swift
/// let screen = DemoScreen(scenario: session.scenario, showsDecoderEEG: session.decoder != nil,
///                         snapshot: { session.decoder?.signalSnapshot ?? .empty })
/// let status = runner.run(screen)
/// ```
public final class DemoScreen: TerminalScene {
    /// The walk-through shown (its controller, keyboard, popup and decoder reports).
    public let scenario: DemoScenario
    /// False with an external decoder, whose EEG the demo does not receive.
    public let showsDecoderEEG: Bool
    /// The signal view (its scale keys are `+`, `-`, `a`).
    public let signalView = SignalView()
    /// Where the signal view's data comes from.
    public var snapshot: () -> SignalSnapshot
    /// The developer panel while open.
    public private(set) var panel: DeveloperPanelScene?
    /// True while `s` shows the signal view outside the signal check.
    public private(set) var showsSignal = false
    /// A line shown under the header for a while (e.g. a colour-mode warning), with its expiry (engine time).
    public var message: (text: String, until: Double)?
    private let keyboardLayout: ButtonLayout
    private var channelsShown = 0
    private var popupLayout: (popup: ConfirmationPopup, layout: ButtonLayout)?
    /// Puts arrow and function keys back together, so that none of their bytes presses a letter key.
    private var keyDecoder = TerminalKeyDecoder()

    static let background = TerminalTheme.background, text = TerminalTheme.text, dim = TerminalTheme.dim
    static let accent = TerminalTheme.accent, good = TerminalTheme.good, warning = TerminalTheme.warning
    static let boxBackground = TerminalTheme.boxBackground

    /// A screen for `scenario`; `snapshot` gives the signal view its EEG.
    public init(scenario: DemoScenario, showsDecoderEEG: Bool, snapshot: @escaping () -> SignalSnapshot) {
        self.scenario = scenario
        self.showsDecoderEEG = showsDecoderEEG
        self.snapshot = snapshot
        keyboardLayout = ButtonLayout(buttons: scenario.keyboard.keys)
    }

    /// The keyboard plus header, two text lines, a spacer and the footer.
    public var minimumSize: TerminalSize {
        TerminalSize(columns: max(60, keyboardLayout.contentSize.columns + 4), rows: keyboardLayout.contentSize.rows + 6)
    }

    /// The area under the text lines and above the footer.
    public func contentRegion(in size: TerminalSize) -> CellRect {
        CellRect(row: 4, column: 0, width: size.columns, height: max(0, size.rows - 5))
    }

    /// Draws the frame.
    public func draw(on screen: TerminalScreen, missedFrames: Int) {
        _ = keyDecoder.flush()      // an Esc on its own does nothing here
        if let panel {
            panel.draw(on: screen, missedFrames: missedFrames)
            return
        }
        let controller = scenario.controller
        let now = controller.clock.now
        screen.clear(to: TerminalCell(character: " ", foreground: Self.text, background: Self.background))
        let leading = scenario.reports.leading.flatMap { lead in
            scenario.label(ofObject: lead.objectID).map { (control: $0, certainty: lead.certainty) }
        }
        TerminalHeader(controller: controller, missedFrames: missedFrames,
                       leading: controller.trialInProgress ? leading : nil).draw(on: screen, row: 0)
        var signalStage = false
        if case .signalCheck = scenario.stage { signalStage = true }
        let latest = signalStage || showsSignal ? snapshot() : nil
        if let latest { channelsShown = latest.channels.count }
        drawStatus(on: screen, row: 1, now: now)
        drawTyped(on: screen, row: 2)
        let region = contentRegion(in: screen.size)
        let palette = StimulusPalette(settings: controller.settings)
        if let latest {
            signalView.draw(latest, on: screen, in: region)
        } else {
            keyboardLayout.draw(on: screen, in: region, palette: palette, feedbackMode: feedbackMode)
            switch scenario.stage {
            case .fitting:
                drawBox(["Fitting the decoder on the calibration trials …",
                         "cross-validating, choosing the certainty needed for a press"], on: screen, in: region)
            case .results:
                drawResults(on: screen, in: region)
            case .confirming(let since):
                drawPopup(since: since, now: now, on: screen, in: region, palette: palette)
            default:
                break
            }
        }
        footer.draw(on: screen, row: screen.size.rows - 1)
    }

    /// The keys that do something now (the footer fits 80 columns).
    private var footer: TerminalFooter {
        let stage = scenario.stage
        var keys: [(String, String)] = [("space", "trials")]
        switch stage {
        case .signalCheck, .results: keys.append(("⏎", "skip"))
        default: keys.append(scenario.popup != nil ? ("Y/N", "touch") : ("A-Z _ ⌫", "touch"))
        }
        if isSignalStage || showsSignal { keys.append(("+-a", "zoom")) }
        keys += [("s", showsSignal ? "keys" : "signal"), ("d", "panel"), ("r", "recal"), ("q", "quit")]
        return TerminalFooter(keys: keys)
    }

    // MARK: Keys

    /// Answers the demo's keys (see the footer); `q` and Ctrl-C end the run
    /// in the runner. Arrow and function keys' sequences are read whole and
    /// do nothing (their last byte is no letter key).
    public func handle(key: UInt8) {
        if let panel {
            panel.handle(key: key)
            return
        }
        for decoded in keyDecoder.feed(key) {
            if case .byte(let byte) = decoded { handle(byte: byte) }
        }
    }

    private func handle(byte key: UInt8) {
        let controller = scenario.controller
        // Upper-case A stays a touch key; +, -, = and a go to the signal view while it shows.
        if showsSignal || isSignalStage, key != UInt8(ascii: "A"), signalView.handle(key: key) { return }
        switch key {
        case UInt8(ascii: " "):
            if scenario.stage == .finished { scenario.spellAgain() } else { controller.trialsAreRunning.toggle() }
        case 13, 10:
            scenario.skipWaiting()
        case UInt8(ascii: "s"):
            showsSignal.toggle()
        case UInt8(ascii: "d"):
            openPanel()
        case UInt8(ascii: "r"):
            scenario.recalibrate()
        default:
            if let popup = scenario.popup {
                if let button = popup.button(forTouch: key) { controller.touchPress(button) }
            } else if let key = scenario.keyboard.key(forTouch: key) {
                controller.touchPress(key)
            }
        }
    }

    private var isSignalStage: Bool {
        if case .signalCheck = scenario.stage { return true }
        return false
    }

    /// The settings the developer panel edits in the demo: the panel's own
    /// four (threshold, frames per bit, feedback mode, inter-trial time) and
    /// the two render hints, so their effect shows on the next trial.
    public static let editableSettings = DeveloperPanelScene.defaultEditableTitles
        .union([.showNoiseTagIDsOnControls, .labeledButtonsOnlyPartlyFlicker])

    /// Opens the panel: a new recording (the guide's rule) and trials
    /// blocked until it closes, so nothing flickers or presses unseen.
    private func openPanel() {
        let controller = scenario.controller
        controller.developerPanelOpened()
        controller.blockTrials()
        let panel = DeveloperPanelScene(settings: controller.settings, editableTitles: Self.editableSettings)
        panel.onClose = { [unowned self] in
            self.panel = nil
            controller.unblockTrials()
        }
        self.panel = panel
    }

    // MARK: Parts

    private func drawStatus(on screen: TerminalScreen, row: Int, now: Double) {
        if let message, now < message.until {
            screen.write(" " + message.text, row: row, column: 0, foreground: Self.warning, background: Self.background)
            return
        }
        let controller = scenario.controller
        if let time = scenario.lastNoticeTime, now - time < 3, let notice = scenario.notices.last {
            screen.write(" " + notice, row: row, column: 0, foreground: Self.warning, background: Self.background)
            return
        }
        let text: String
        var color = Self.accent
        switch scenario.stage {
        case .signalCheck(let until):
            let source = !showsDecoderEEG ? "the external decoder's EEG is not shown here"
                : channelsShown == 0 ? "waiting for EEG" : "\(channelsShown) channels from the amplifier"
            text = "Signal check: \(source) — calibration in \(Int((until - now).rounded(.up))) s (⏎ now)"
        case .calibration:
            let total = controller.settings.intFor(.nGenericTrainTrials)
            let current = min(total, max(1, scenario.calibrationTrialsStarted))
            if controller.trialsAreRunning {
                text = "Calibration: trial \(current) of \(total) — look at the highlighted key"
            } else {
                text = "Calibration paused at trial \(current) of \(total) — space goes on"
                color = Self.warning
            }
        case .fitting:
            text = "Calibration done — the decoder is fitting"
        case .results(let until):
            text = "Calibrated — typing starts in \(Int((until - now).rounded(.up))) s (⏎ now)"
        case .spelling, .confirming:
            if !controller.trialsAreRunning {
                text = "Paused — space starts trials"
                color = Self.warning
            } else if controller.trialInProgress, scenario.popup != nil {
                text = scenario.user != nil ? "Confirm: the simulated user looks at Yes if the text is right" : "Confirm: look at Yes or No"
            } else if controller.trialInProgress {
                text = scenario.user != nil ? "Spelling by brain: the simulated user looks at the key it needs" : "Look at the key you want"
            } else if let end = scenario.lastTrialEnd, controller.isShowingFeedback == false {
                let gap = controller.settings.doubleFor(.timeInBetweenTrials) - (now - end)
                text = gap > 0 ? String(format: "Next trial in %.1f s (timeInBetweenTrials)", gap) : "Next trial starting"
            } else {
                text = controller.isShowingFeedback ? "Pressed — feedback (\(controller.settings.textFor(.clickFeedbackMode)))" : "Next trial starting"
            }
        case .finished:
            text = "Sent — space spells it again, r recalibrates, q quits"
            color = Self.good
        }
        screen.write(" " + text, row: row, column: 0, foreground: color, background: Self.background)
    }

    private func drawTyped(on screen: TerminalScreen, row: Int) {
        let typed = scenario.keyboard.typed
        let goal = scenario.goal
        var x = screen.write(" Goal ", row: row, column: 0, foreground: Self.dim, background: Self.background)
        x += screen.write(goal, row: row, column: x, foreground: Self.dim, background: Self.background)
        x += screen.write("   Typed ", row: row, column: x, foreground: Self.dim, background: Self.background)
        let right = goal.hasPrefix(typed)
        x += screen.write(typed, row: row, column: x, foreground: right ? Self.good : Self.warning, background: Self.background)
        screen.put("▏", row: row, column: x, foreground: Self.text, background: Self.background)
    }

    private func box(width: Int, height: Int, in region: CellRect) -> CellRect {
        let w = min(width, region.width), h = min(height, region.height)
        return CellRect(row: region.row + max(0, (region.height - h) / 2), column: region.column + max(0, (region.width - w) / 2),
                        width: w, height: h)
    }

    private func drawBox(_ lines: [String], on screen: TerminalScreen, in region: CellRect) {
        let width = (lines.map(\.count).max() ?? 0) + 4
        let rect = box(width: width, height: lines.count + 2, in: region)
        screen.fill(rect, with: Self.boxBackground, foreground: Self.text)
        for (index, line) in lines.enumerated() where index + 1 < rect.height {
            screen.write(line, row: rect.row + 1 + index, column: rect.column + 2, foreground: index == 0 ? Self.accent : Self.text,
                         background: Self.boxBackground, maxWidth: rect.width - 3)
        }
    }

    /// "0.5 s 20 %, 1.0 s 60 %, 4.2 s 100 %" as one line that fits 80
    /// columns: "accuracy at 0.5/1/4.2 s: 20/60/100 %".
    static func curve(_ points: String) -> String {
        let pairs = points.components(separatedBy: ", ").map { $0.split(separator: " ") }
        guard !pairs.isEmpty, pairs.allSatisfy({ $0.count == 4 && $0[1] == "s" && $0[3] == "%" }) else { return "accuracy by trial length: " + points }
        let seconds = pairs.map { String(format: "%g", Double($0[0]) ?? 0) }
        return "accuracy at " + seconds.joined(separator: "/") + " s: " + pairs.map { String($0[2]) }.joined(separator: "/") + " %"
    }

    private func drawResults(on screen: TerminalScreen, in region: CellRect) {
        let reports = scenario.reports
        let threshold = scenario.controller.settings.doubleFor(.certaintyRequiredForPress)
        var lines = ["Calibration results"]
        lines.append("accuracy (cross-validated): " + (reports.calibrationAccuracy.map { "\(Int(($0 * 100).rounded())) %" } ?? "not reported"))
        lines.append("certainty required for a press: " + CertaintyText.format(threshold)
                     + (reports.thresholds.isEmpty ? " (setting)" : " (recommended by the decoder)"))
        for line in reports.calibrationSummary {
            if line.hasPrefix("decoding curve: ") { lines.append(Self.curve(String(line.dropFirst(16)))) }
            // The fit's own line ("calibration: 10 trials of 4.2 s, 9 classes; latency 40 ms; …"), not the choice's settings.
            if let latency = line.range(of: "; latency ") {
                lines.append("stimulus-to-response latency: " + line[latency.upperBound...].prefix { $0 != ";" })
            }
        }
        if scenario.thresholdAtCeiling {
            lines.append("too little calibration for a safe threshold: r calibrates again")
            lines.append("(more or longer trials: --calibration-trials, trialDurationGenericTrain)")
        }
        drawBox(lines, on: screen, in: region)
    }

    private func drawPopup(since: Double, now: Double, on screen: TerminalScreen, in region: CellRect, palette: StimulusPalette) {
        guard let popup = scenario.popup else { return }
        if popupLayout?.popup !== popup { popupLayout = (popup, ButtonLayout(buttons: [popup.yes, popup.no])) }
        let layout = popupLayout!.layout
        let width = max(layout.contentSize.columns, popup.question.count) + 6
        let fullHeight = layout.contentSize.rows + 5
        // Slides in while trials are blocked for the animation.
        let progress = min(1, max(0, (now - since) / DemoScenario.popupAnimationSeconds))
        let height = max(1, Int((Double(fullHeight) * progress).rounded(.up)))
        let full = box(width: width, height: fullHeight, in: region)
        let rect = CellRect(row: full.row, column: full.column, width: full.width, height: min(height, full.height))
        screen.fill(rect, with: Self.boxBackground, foreground: Self.text)
        guard progress >= 1 else { return }
        screen.write(popup.question, row: rect.row + 1, column: rect.column + (rect.width - popup.question.count) / 2,
                     foreground: Self.text, background: Self.boxBackground, maxWidth: rect.width - 2)
        layout.draw(on: screen, in: CellRect(row: rect.row + 3, column: rect.column, width: rect.width, height: layout.contentSize.rows),
                    palette: palette, feedbackMode: feedbackMode)
    }

    private var feedbackMode: ClickFeedbackMode? {
        ClickFeedbackMode(rawValue: scenario.controller.settings.textFor(.clickFeedbackMode))
    }
}
