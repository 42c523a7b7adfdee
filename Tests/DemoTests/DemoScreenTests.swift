import Decoding
import Foundation
import NoiseTagging
import Testing
import TerminalUI
@testable import Demo

/// The demo's screen drawn from the scenario at each stage (virtual clock,
/// scripted decoder), and the keys it answers.
@Suite("Demo screen")
struct DemoScreenTests {
    static let size = TerminalSize(columns: 80, rows: 24)

    static func rows(_ screen: TerminalScreen) -> [String] {
        (0..<screen.size.rows).map { row in
            String(String.UnicodeScalarView((0..<screen.size.columns).map { screen[row: row, column: $0].character }))
        }
    }

    static func draw(_ demo: DemoScreen) -> [String] {
        let screen = TerminalScreen(size: size, colorMode: .trueColor)
        demo.draw(on: screen, missedFrames: 0)
        return rows(screen)
    }

    static func twoChannels() -> SignalSnapshot {
        let samples: [Double] = (0..<1250).map { (i: Int) -> Double in 20 * sin(Double(i) * 2 * Double.pi * 10 / 250) }
        return SignalSnapshot(sampleRate: 250, sampleCount: 1250, channels: [
            SignalSnapshot.Channel(name: "Oz", samples: samples, quality: 0.3),
            SignalSnapshot.Channel(name: "Pz", samples: samples, quality: 2),
        ])
    }

    @Test("The signal check shows the signal view with a countdown and its scale keys")
    func signalCheck() throws {
        let rig = try DemoRig(goal: "HI")
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: true, snapshot: { Self.twoChannels() })
        rig.scenario.start()
        rig.run(seconds: 0.1)
        let rows = Self.draw(demo)
        #expect(rows[0].contains("SignalQuality"))
        #expect(rows[1].contains("Signal check: 2 channels from the amplifier — calibration in 2 s"))
        #expect(rows.contains { $0.contains(" Oz ") } && rows.contains { $0.contains(" Pz ") })
        #expect(rows[23].contains("+-a zoom") && rows[23].contains("⏎ skip"))
        let external = DemoScreen(scenario: rig.scenario, showsDecoderEEG: false, snapshot: { .empty })
        #expect(Self.draw(external)[1].contains("the external decoder's EEG is not shown here"))
    }

    @Test("Calibration counts its trials over the keyboard; results show the decoder's accuracy and threshold")
    func calibrationAndResults() throws {
        let rig = try DemoRig(goal: "HI")
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: false, snapshot: { .empty })
        rig.scenario.start()
        #expect(rig.run(seconds: 10) { rig.controller.currentPhase == .flicker })
        var rows = Self.draw(demo)
        #expect(rows[0].contains("TrainGeneric │ trial 1 flicker"))
        #expect(rows[1].contains("Calibration: trial 1 of 5"))
        #expect(rows.contains { $0.split(separator: " ") == ["A", "B", "C", "D", "E", "F", "G"] })
        #expect(rig.run(seconds: 60) { if case .results = rig.scenario.stage { return true }; return false })
        rows = Self.draw(demo)
        #expect(rows.contains { $0.contains("accuracy (cross-validated): 90 %") })
        #expect(rows.contains { $0.contains("certainty required for a press: 0.9900 (recommended by the decoder)") })
        #expect(!rows.contains { $0.contains("too little calibration") })
    }

    @Test("A window too small for the keys pauses calibration: the trial under way ends blocked, none starts until it is large again")
    func tooSmallPausesTrials() throws {
        let rig = try DemoRig(goal: "HI")
        rig.scenario.start()
        #expect(rig.run(seconds: 10) { rig.controller.currentPhase == .flicker })
        TerminalRunner.blockTrials(true, of: rig.controller)       // as the runner does when the window shrinks
        let hidden = rig.events.count
        rig.run(seconds: 20)
        let whileHidden = rig.events[hidden...]
        #expect(!whileHidden.contains { if case .trialStarted = $0.kind { return true }; return false })
        let ended = rig.events.compactMap { event -> TrialEnding? in
            if case .trialEnded(let end) = event.kind { return end.ending }
            return nil
        }
        #expect(ended == [.stopped(.blocked)])
        #expect(rig.scenario.stage == .calibration)
        TerminalRunner.blockTrials(false, of: rig.controller)
        #expect(rig.run(seconds: 5) { rig.controller.currentPhase == .flicker })
        #expect(rig.run(seconds: 60) { if case .results = rig.scenario.stage { return true }; return false })
    }

    @Test("A ceiling threshold (too little calibration) is called out on the results screen; one just below it is not",
          arguments: [(Float(0.999999), true), (Float(0.999995), false)])
    func ceilingThreshold(threshold: Float, atCeiling: Bool) throws {
        let rig = try DemoRig(goal: "HI")
        rig.decoder.threshold = threshold
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: false, snapshot: { .empty })
        rig.scenario.start()
        #expect(rig.run(seconds: 60) { if case .results = rig.scenario.stage { return true }; return false })
        #expect(rig.scenario.thresholdAtCeiling == atCeiling)
        #expect(Self.draw(demo).contains { $0.contains("too little calibration for a safe threshold: r calibrates again") } == atCeiling)
        guard atCeiling else { return }
        // Not rounded up to a certain-looking 1.0000.
        #expect(Self.draw(demo).contains { $0.contains("certainty required for a press: 0.999999") })
        #expect([0.99, 0.99999, 0.999994, 1, 0].map(CertaintyText.format) == ["0.9900", "0.99999", "0.999994", "1.0000", "0.0000"])
    }

    @Test("The popup slides in while trials are blocked, then asks with Yes and No")
    func popupSlidesIn() throws {
        let rig = try DemoRig(goal: "A")
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: false, snapshot: { .empty })
        rig.scenario.start()
        #expect(rig.run(seconds: 100) { if case .confirming = rig.scenario.stage { return true }; return false })
        #expect(rig.controller.trialsAreBlocked)
        let early = Self.draw(demo)
        #expect(!early.contains { $0.contains("Send \"A\"?") }, "the question appears once the popup is in")
        rig.run(seconds: DemoScenario.popupAnimationSeconds + 0.05)
        let late = Self.draw(demo)
        #expect(late.contains { $0.contains("Send \"A\"?") })
        #expect(late.contains { $0.contains("Yes") && $0.contains("No") })
        #expect(late[23].contains("Y/N touch"))
    }

    @Test("Keys: upper-case letters press by touch, s shows the signal view, d opens and closes the developer panel")
    func keys() throws {
        let rig = try DemoRig(goal: "HI", simulatedUser: false)
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: true, snapshot: { Self.twoChannels() })
        rig.scenario.start()
        #expect(rig.run(seconds: 100) { rig.scenario.stage == .spelling && rig.controller.trialInProgress })
        // Up, Down, F1 and Page Up press nothing: their last bytes (A, B, P, ~) are no touch.
        for sequence in ["\u{1b}[A", "\u{1b}[B", "\u{1b}OP", "\u{1b}[5~"] { for byte in sequence.utf8 { demo.handle(key: byte) } }
        rig.run(seconds: 0.05)
        #expect(rig.keyboard.typed == "" && !rig.events.contains { if case .press = $0.kind { return true } else { return false } })
        demo.handle(key: UInt8(ascii: "Q"))
        rig.run(seconds: 0.05)
        #expect(rig.keyboard.typed == "Q")
        #expect(Self.draw(demo)[2].contains("Typed Q"))
        demo.handle(key: UInt8(ascii: "Z"))              // during the feedback of Q: refused, and said so
        rig.run(seconds: 0.05)
        #expect(rig.keyboard.typed == "Q")
        #expect(Self.draw(demo)[1].contains("refused"))
        demo.handle(key: UInt8(ascii: "s"))
        #expect(demo.showsSignal)
        #expect(Self.draw(demo).contains { $0.contains(" Oz ") })
        demo.handle(key: UInt8(ascii: "s"))
        demo.handle(key: UInt8(ascii: "d"))
        #expect(demo.panel != nil)
        #expect(Self.draw(demo)[0].contains("Developer panel"))
        rig.run(seconds: 3)
        #expect(rig.controller.trialsAreBlocked && !rig.controller.trialInProgress, "no trial runs behind the panel")
        demo.handle(key: UInt8(ascii: "d"))
        #expect(demo.panel == nil)
        #expect(rig.run(seconds: 3) { rig.controller.trialInProgress })
        #expect(Self.draw(demo).contains { $0.split(separator: " ") == ["A", "B", "C", "D", "E", "F", "G"] })
    }

    @Test("Space pauses and resumes trials, and the status line says so")
    func spacePauses() throws {
        let rig = try DemoRig(goal: "HI", simulatedUser: false)
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: false, snapshot: { .empty })
        rig.scenario.start()
        #expect(rig.run(seconds: 100) { rig.scenario.stage == .spelling })
        demo.handle(key: UInt8(ascii: " "))
        rig.run(seconds: 3.5)
        #expect(!rig.controller.trialsAreRunning)
        #expect(Self.draw(demo)[1].contains("Paused — space starts trials"))
        demo.handle(key: UInt8(ascii: " "))
        #expect(rig.run(seconds: 3) { rig.controller.trialInProgress })
    }

    @Test("Space pauses calibration too, and the status line says so rather than asking to look")
    func spacePausesCalibration() throws {
        let rig = try DemoRig(goal: "HI", simulatedUser: false)
        let demo = DemoScreen(scenario: rig.scenario, showsDecoderEEG: false, snapshot: { .empty })
        rig.scenario.start()
        #expect(rig.run(seconds: 30) { rig.scenario.stage == .calibration && rig.controller.trialInProgress })
        #expect(Self.draw(demo)[1].contains("Calibration: trial 1 of"))
        demo.handle(key: UInt8(ascii: " "))
        rig.run(seconds: 8)
        #expect(!rig.controller.trialsAreRunning && !rig.controller.trialInProgress && rig.scenario.stage == .calibration)
        let paused = Self.draw(demo)[1]
        #expect(paused.contains("Calibration paused at trial 1 of") && paused.contains("space goes on"), "\(paused)")
        demo.handle(key: UInt8(ascii: " "))
        #expect(rig.run(seconds: 5) { rig.controller.trialInProgress })
        #expect(Self.draw(demo)[1].contains("Calibration: trial 2 of"))
    }

    @Test func theResultsBoxFitsTheDecodingCurveOnOneLine() {
        #expect(DemoScreen.curve("0.5 s 20 %, 1.0 s 60 %, 2.0 s 80 %, 4.0 s 100 %, 4.2 s 100 %")
                == "accuracy at 0.5/1/2/4/4.2 s: 20/60/80/100/100 %")
        #expect(DemoScreen.curve("whatever else") == "accuracy by trial length: whatever else")
    }
}
