import Testing
import UtopiaProtocol
@testable import NoiseTagging

/// Pins what a flicker frame is, from the codebook alone: states, object IDs,
/// colours, frames per bit, the training target at ID 0, hidden non-targets.
/// A control of the app's own type that logs every colour it is given.
private final class Lamp: NoiseTagControl {
    let noiseTagging = NoiseTagControlProperties(identifier: "lamp")
    var painted: [NoiseTagColor] = []
    func setFlickerColor(_ color: NoiseTagColor) { painted.append(color) }
}

@Suite("Frame rendering")
struct FrameRenderingTests {
    /// Ticks once per 60 Hz frame deadline from `start` and returns the STIMULUSEVENTs sent.
    private func frames(_ h: EngineHarness, count: Int, from start: Double,
                        each: (Int) -> Void = { _ in }) -> [StimulusEvent] {
        h.link.clearSent()
        for i in 0..<count {
            let deadline = start + Double(i) / 60
            h.clock.advance(to: deadline)
            h.controller.tick(frame: FrameTiming(index: i, deadline: deadline, time: deadline, period: 1.0 / 60))
            each(i)
        }
        return h.link.sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }
    }

    @Test("Test mode: one STIMULUSEVENT per frame with code k's state for object k+1, colours to match, wrapping")
    func testModeStates() throws {
        let h = try EngineHarness(buttons: 5) { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        let book = h.controller.codebook
        let palette = StimulusPalette(settings: h.settings)
        var colors: [[NoiseTagColor?]] = []
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        let count = book.length + 10
        let events = frames(h, count: count, from: 0) { _ in colors.append(h.buttons.map(\.flickerColor)) }
        #expect(events.count == count)
        #expect(h.controller.flickerFramesRendered == count)
        for (i, event) in events.enumerated() {
            #expect(event.objIDs == [1, 2, 3, 4, 5])
            let expected = (0..<5).map { book.codes[$0][i % book.length] }
            #expect(event.objStates == expected, "frame \(i)")
            #expect(colors[i] == expected.map { palette.color(forState: $0) }, "frame \(i)")
            #expect(event.timestamp == MonotonicClock.utopiaTimestamp(for: Double(i) / 60))
        }
    }

    /// `states` with each run of equal states cut to its first: what a
    /// control that is painted only on a change sees.
    private func changes(_ states: [UInt8], _ palette: StimulusPalette) -> [NoiseTagColor] {
        let colors = states.map { palette.color(forState: $0) }
        return colors.indices.filter { $0 == 0 || colors[$0] != colors[$0 - 1] }.map { colors[$0] }
    }

    @Test("controls of any kind (own types, button subclasses) are painted on the first frame and on every change")
    func controlKinds() throws {
        final class LoggingButton: NoiseTagButton {
            var painted: [NoiseTagColor] = []
            override func setFlickerColor(_ color: NoiseTagColor) {
                super.setFlickerColor(color)
                painted.append(color)
            }
        }
        let h = try EngineHarness(buttons: 1) { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        let lamp = Lamp(), logging = LoggingButton(identifier: "logging")
        h.view.add(lamp)
        h.view.add(logging)
        let book = h.controller.codebook
        let palette = StimulusPalette(settings: h.settings)
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        var buttonColors: [NoiseTagColor?] = []
        let events = frames(h, count: 20, from: 0) { _ in buttonColors.append(h.buttons[0].flickerColor) }
        #expect(events.count == 20)
        #expect(events.allSatisfy { $0.objIDs == [1, 2, 3] })
        let lampStates = Array(book.codes[1][0..<20]), loggingStates = Array(book.codes[2][0..<20])
        // Issue 10: a control's default noiseTaggingDidChange shows its default look first.
        #expect(lamp.painted == [palette.enabled] + changes(lampStates, palette))
        #expect(logging.painted == changes(loggingStates, palette))
        #expect(lamp.painted.count < 20 && logging.painted.count < 20, "a code with repeated states skips frames")
        #expect(logging.flickerColor == palette.color(forState: book.codes[2][19]))
        #expect(buttonColors == (0..<20).map { palette.color(forState: book.codes[0][$0]) })
    }

    @Test("codes with states beyond 0 and 1: every non-zero state is on; a control is painted when its colour changes")
    func multiLevelStates() throws {
        let dir = try TemporaryFolder()
        let file = dir.url.appendingPathComponent("levels.txt").path
        let codes: [[UInt8]] = [[2, 1, 0, 3, 3, 0], [2, 1, 0, 0, 3, 1]]
        try CodebookFile(codebook: try Codebook(codes: codes)).write(toFile: file)
        let h = try EngineHarness(buttons: 1) {
            try $0.set(value: .text(file), for: .filenameNoiseTags)
            try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        }
        let lamp = Lamp()
        h.view.add(lamp)
        let palette = StimulusPalette(settings: h.settings)
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        var buttonColors: [NoiseTagColor?] = []
        let events = frames(h, count: 6, from: 0) { _ in buttonColors.append(h.buttons[0].flickerColor) }
        #expect(events.map(\.objStates) == (0..<6).map { [codes[0][$0], codes[1][$0]] })
        #expect(buttonColors == codes[0].map { palette.color(forState: $0) })
        // Issue 10: the default look first, from the default noiseTaggingDidChange.
        #expect(lamp.painted == [palette.enabled, palette.bitOn, palette.bitOff, palette.bitOn], "2 then 1, and 3 then 1, are one colour")
    }

    @Test("a control that ends the trial from setFlickerColor stops the flicker without a crash")
    func reentrantControl() throws {
        final class Stopper: NoiseTagControl {
            let noiseTagging = NoiseTagControlProperties(identifier: "stopper")
            weak var controller: NoiseTagController?
            var painted = 0
            // Counts only the painter's calls (issue 10: the default would paint the default look too).
            func noiseTaggingDidChange(isRunning: Bool) {}
            func setFlickerColor(_ color: NoiseTagColor) {
                painted += 1
                if painted == 3 { controller?.trialsAreRunning = false }
            }
        }
        let h = try EngineHarness(buttons: 2) { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        let stopper = Stopper()
        stopper.controller = h.controller
        h.view.add(stopper)
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        let events = frames(h, count: 40, from: 0)
        #expect(stopper.painted == 3)
        #expect(!h.controller.trialInProgress)
        #expect(events.count < 40, "no flicker frame after the trial stopped")
    }

    @Test("a link that replaces itself while sending is kept alive until its send returns; later frames go to the new link")
    func linkReplacedDuringSend() throws {
        final class Journal { var lines: [String] = [] }
        final class SelfReplacingLink: DecoderLink {
            let journal: Journal
            let replace: () -> Void
            var stimulusEvents = 0
            init(journal: Journal, replace: @escaping () -> Void) { self.journal = journal; self.replace = replace }
            deinit { journal.lines.append("freed") }
            func send(_ message: UtopiaMessage) -> Bool {
                guard case .stimulusEvent = message else { return false }
                stimulusEvents += 1
                if stimulusEvents == 5 { replace() }
                journal.lines.append("send \(stimulusEvents) returned")
                return true
            }
            func receive() -> [UtopiaMessage] { [] }
        }
        let h = try EngineHarness(buttons: 2) { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        let journal = Journal(), replacement = InMemoryDecoderLink()
        h.controller.decoderLink = SelfReplacingLink(journal: journal) { [unowned controller = h.controller] in
            controller.decoderLink = replacement
        }
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        for i in 0..<20 {
            h.clock.advance(to: Double(i) / 60)
            h.controller.tick(frame: FrameTiming(index: i, deadline: Double(i) / 60, time: Double(i) / 60, period: 1.0 / 60))
        }
        #expect(journal.lines == (1...5).map { "send \($0) returned" } + ["freed"])
        let later = replacement.sent.filter { if case .stimulusEvent = $0 { return true } else { return false } }
        #expect(later.count == 15)
    }

    @Test("framesPerBit 3 holds each state three frames; a second tick in the same frame sends nothing")
    func framesPerBit() throws {
        let h = try EngineHarness(buttons: 2) {
            try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration)
            try $0.set(value: .int(3), for: .framesPerBit)
        }
        let book = h.controller.codebook
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        let events = frames(h, count: 30, from: 0) { i in
            h.controller.tick(frame: FrameTiming(index: i, deadline: Double(i) / 60, time: Double(i) / 60 + 0.001,
                                                 period: 1.0 / 60))
        }
        #expect(events.count == 30)
        for (i, event) in events.enumerated() {
            #expect(event.objStates == [book.codes[0][i / 3], book.codes[1][i / 3]], "frame \(i)")
        }
    }

    @Test("a frame-rate change mid-flicker: the loop keeps counting frames at the new period and each frame shows the next bit")
    func frameRateChange() throws {
        let h = try EngineHarness(buttons: 1) { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        let code = h.controller.codebook.codes[0]
        let loop = FrameLoop(controller: h.controller, waiter: VirtualFrameWaiter(clock: h.clock))
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        var timings = (0..<10).map { _ in loop.step() }
        try h.settings.set(value: .int(30), for: .preferredNFramesPerSecond)
        timings += (0..<12).map { _ in loop.step() }
        let states = h.link.sent.compactMap { if case .stimulusEvent(let e) = $0 { return e.objStates } else { return nil } }
        #expect(states == (0..<22).map { [code[$0]] }, "one bit per frame, before and after the change")
        #expect(timings.map(\.index) == Array(0..<22))
        #expect(abs(timings[10].deadline - 10.0 / 60) < 1e-9, "the next frame keeps its deadline")
        #expect(abs(timings[21].deadline - (10.0 / 60 + 11.0 / 30)) < 1e-9, "then frames come every 1/30 s")
        #expect(loop.period == 1.0 / 30)
    }

    @Test("training: the target's state rides on object ID 0; hideNonTargetControls zeroes the others")
    func trainingTarget() throws {
        for hide in [false, true] {
            let h = try EngineHarness(buttons: 4) {
                try $0.set(value: .bool(hide), for: .hideNonTargetControls)
                try $0.set(value: .double(60), for: .trialDurationGenericTrain)
            }
            h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
            h.start(in: .trainGeneric)
            var colors: [[NoiseTagColor?]] = []
            var sent = 0
            // Cue and pause (1.5 s) render nothing; then about 140 flicker frames.
            let events = frames(h, count: 90 + 140, from: 1.0 / 60) { _ in
                if h.link.sent.count > sent { colors.append(h.buttons.map(\.flickerColor)) }
                sent = h.link.sent.count
            }
            let trial = try #require(h.trialStarts.last)
            guard case .trialStarted(let info) = trial.kind else { Issue.record("no trial start"); return }
            let target = try #require(info.targetObjectID)
            let shift = info.codeShift ?? 0
            let book = h.controller.codebook.cyclicallyShifted(by: shift)
            let palette = StimulusPalette(settings: h.settings)
            #expect((140...141).contains(events.count), "about 1.5 s of cue and pause without frames")
            #expect(colors.count == events.count)
            for (i, event) in events.enumerated() {
                let bit = i % book.length
                #expect(event.objIDs == [0, 1, 2, 3, 4])
                let states = (0..<4).map { k in hide && k + 1 != target ? 0 : book.codes[k][bit] }
                #expect(event.objStates == [book.codes[target - 1][bit]] + states, "hide \(hide), frame \(i)")
                #expect(colors[i] == states.map { palette.color(forState: $0) }, "hide \(hide), frame \(i)")
            }
        }
    }
}
