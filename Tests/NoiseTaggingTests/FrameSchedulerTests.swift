import Foundation
import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Frame scheduler")
struct FrameSchedulerTests {
    /// Four short codes of length 5, written to a file and selected with filenameNoiseTags.
    static let codes: [[UInt8]] = [[1, 0, 0, 1, 1], [0, 1, 0, 0, 1], [1, 1, 1, 0, 0], [0, 0, 1, 1, 0]]

    private func harness(framesPerBit: Int = 1, buttons: Int = 4,
                         configure: (NoiseTagSettings) throws -> Void = { _ in }) throws -> (EngineHarness, TemporaryFolder) {
        let dir = try TemporaryFolder()
        let file = dir.url.appendingPathComponent("codes.txt").path
        try CodebookFile(codebook: try Codebook(codes: Self.codes)).write(toFile: file)
        let h = try EngineHarness(buttons: buttons) {
            try $0.set(value: .text(file), for: .filenameNoiseTags)
            try $0.set(value: .int(framesPerBit), for: .framesPerBit)
            try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration)
            try configure($0)
        }
        return (h, dir)
    }

    private func stimulusEvents(_ h: EngineHarness) -> [StimulusEvent] {
        h.link.sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }
    }

    @Test("frame to bit: framesPerBit 1, 2 and 3, wrapping around the code", arguments: [1, 2, 3])
    func bitMapping(framesPerBit: Int) throws {
        let (h, dir) = try harness(framesPerBit: framesPerBit)
        _ = dir
        h.start()
        for _ in 0..<(5 * framesPerBit * 2 + 3) { h.run(for: 1.0 / 60) }
        let events = stimulusEvents(h)
        #expect(events.count == 5 * framesPerBit * 2 + 4)
        for (frame, event) in events.enumerated() {
            let bit = (frame / framesPerBit) % 5
            #expect(event.objIDs == [1, 2, 3, 4])
            #expect(event.objStates == Self.codes.map { $0[bit] }, "frame \(frame)")
        }
        let last = events.last!.objStates
        let palette = StimulusPalette(settings: h.settings)
        for (k, button) in h.buttons.enumerated() {
            #expect(button.flickerColor == palette.color(forState: last[k]))
        }
    }

    @Test("ticks between frames send nothing more; a skipped frame skips its bit")
    func timeLocked() throws {
        let (h, dir) = try harness()
        _ = dir
        h.start()
        h.controller.tick()                                  // same frame again
        #expect(stimulusEvents(h).count == 1)
        h.clock.advance(by: 3.0 / 60)                        // two frames lost
        h.controller.tick()
        let events = stimulusEvents(h)
        #expect(events.count == 2)
        #expect(events[1].objStates == Self.codes.map { $0[3] })
    }

    @Test("training: object ID 0 carries the target's state; cue and pause frames send nothing")
    func targetInTraining() throws {
        let (h, dir) = try harness { try $0.set(value: .bool(false), for: .randomlyTranslateNoiseTagsInTraining) }
        _ = dir
        h.start(in: .trainGeneric)
        h.run(until: 1.49)
        #expect(stimulusEvents(h).isEmpty, "cue and pause send no STIMULUSEVENT")
        h.run(until: 2.0)
        guard case .trialStarted(let start)? = h.trialStarts.first?.kind, let targetID = start.targetObjectID else {
            Issue.record("no training trial"); return
        }
        let events = stimulusEvents(h)
        #expect(!events.isEmpty)
        for event in events {
            #expect(event.objIDs == [0, 1, 2, 3, 4])
            #expect(event.objStates[0] == event.objStates[targetID])
        }
    }

    @Test("Verify: object ID 0 carries the cued target's state, as the MindAffect SDK's cued prediction does")
    func targetInVerify() throws {
        let (h, dir) = try harness()
        _ = dir
        h.start(in: .verify)
        h.run(until: 2.5)
        guard case .trialStarted(let start)? = h.trialStarts.first?.kind, let targetID = start.targetObjectID else {
            Issue.record("no Verify trial with a target"); return
        }
        #expect(start.mode == .verify && start.objectIDs == [1, 2, 3, 4])
        let events = stimulusEvents(h)
        #expect(!events.isEmpty)
        for event in events {
            #expect(event.objIDs == [0, 1, 2, 3, 4])
            #expect(event.objStates[0] == event.objStates[targetID])
        }
        // A prediction of object 0 is not a press: 0 is the target's copy, not a control.
        h.predict(objectID: 0, perr: 0)
        h.run(for: 0.2)
        #expect(h.presses.isEmpty)
    }

    @Test("Test mode: no object ID 0")
    func noTargetInTest() throws {
        let (h, dir) = try harness()
        _ = dir
        h.start()
        h.run(for: 0.5)
        #expect(stimulusEvents(h).allSatisfy { !$0.objIDs.contains(0) })
    }

    @Test("randomlyTranslateNoiseTagsInTraining shifts every code by a logged, seeded offset")
    func translation() throws {
        func shifts() throws -> [Int] {
            let (h, dir) = try harness { try $0.set(value: .int(3), for: .nGenericTrainTrials) }
            _ = dir
            h.start(in: .trainGeneric)
            h.run(until: 2.0)
            let shift = h.kinds.compactMap { if case .trialStarted(let start) = $0 { return start.codeShift } else { return nil } }
            let first = stimulusEvents(h)[0]
            #expect(first.objStates.dropFirst().elementsEqual(Self.codes.map { $0[shift[0] % 5] }))
            h.run(until: 20)
            return h.kinds.compactMap { if case .trialStarted(let start) = $0 { return start.codeShift } else { return nil } }
        }
        let a = try shifts()
        #expect(a.count == 3)
        #expect(try shifts() == a, "same seed, same shifts")
    }

    @Test("assignment: custom IDs kept, others take the next free ID; reversed order takes codes from the end")
    func assignment() throws {
        let (h, dir) = try harness { try $0.set(value: .bool(true), for: .assignNoiseTagsInReversedOrder) }
        _ = dir
        h.buttons[0].noiseTagging.customUtopiaObjectID = 2
        h.start()
        let event = stimulusEvents(h)[0]
        #expect(event.objIDs == [2, 1, 3, 4])
        #expect(event.objStates == [Self.codes[3][0], Self.codes[2][0], Self.codes[1][0], Self.codes[0][0]])
    }

    @Test("assignment errors: ID out of range, duplicate, more controls than codes, more than 255")
    func assignmentErrors() throws {
        func controls(_ n: Int) -> [NoiseTagButton] { (0..<n).map { NoiseTagButton(identifier: "c\($0)") } }
        let outOfRange = controls(2)
        outOfRange[1].noiseTagging.customUtopiaObjectID = 0
        #expect(throws: CodeAssignmentError.objectIDOutOfRange(0, control: "c1")) {
            try CodeAssignment.assign(outOfRange, codeCount: 10, reversed: false)
        }
        outOfRange[1].noiseTagging.customUtopiaObjectID = 256
        #expect(throws: CodeAssignmentError.objectIDOutOfRange(256, control: "c1")) {
            try CodeAssignment.assign(outOfRange, codeCount: 10, reversed: false)
        }
        let duplicate = controls(3)
        duplicate[0].noiseTagging.customUtopiaObjectID = 7
        duplicate[2].noiseTagging.customUtopiaObjectID = 7
        #expect(throws: CodeAssignmentError.duplicateObjectID(7, controls: ["c0", "c2"])) {
            try CodeAssignment.assign(duplicate, codeCount: 10, reversed: false)
        }
        #expect(throws: CodeAssignmentError.notEnoughCodes(controls: 5, codes: 4)) {
            try CodeAssignment.assign(controls(5), codeCount: 4, reversed: false)
        }
        #expect(throws: CodeAssignmentError.tooManyControls(count: 256, limit: 255)) {
            try CodeAssignment.assign(controls(256), codeCount: 1000, reversed: false)
        }
        #expect(try CodeAssignment.assign(controls(255), codeCount: 255, reversed: false).last?.objectID == 255)
    }

    @Test("more flickering controls than codes: reported, no trial")
    func engineReportsTooFewCodes() throws {
        let (h, dir) = try harness(buttons: 5)
        h.start()
        h.run(for: 1)
        #expect(h.trialStarts.isEmpty)
        #expect(h.refusals == ["5 flickering controls, but the codebook has only 4 codes (\(dir.url.appendingPathComponent("codes.txt").path))"])
    }

    @Test("disabled, hidden and non-participating controls show their default colours")
    func defaults() throws {
        let (h, dir) = try harness()
        _ = dir
        h.buttons[1].noiseTagging.enabled = false
        h.buttons[2].noiseTagging.participatesInFlickering = false
        h.buttons[3].isHidden = true
        h.start()
        h.run(for: 0.5)
        let palette = StimulusPalette(settings: h.settings)
        #expect(h.buttons[1].flickerColor == palette.disabled)
        #expect(h.buttons[2].flickerColor == palette.enabled)
        #expect(stimulusEvents(h).allSatisfy { $0.objIDs == [1] })
    }

    @Test("contrastMode pulls both flicker colours towards their middle")
    func contrast() throws {
        let settings = NoiseTagSettings()
        #expect(StimulusPalette(settings: settings).bitOn == .white)
        try settings.set(value: .text("Min"), for: .contrastMode)
        let low = StimulusPalette(settings: settings)
        #expect(abs(low.bitOn.red - 0.6) < 1e-9)
        #expect(abs(low.bitOff.red - 0.4) < 1e-9)
    }

    @Test("a bad codebook file is reported by name and the previous codebook stays")
    func badCodebook() throws {
        let dir = try TemporaryFolder()
        let file = dir.url.appendingPathComponent("bad.txt")
        try "0\t17\n1\tx\n".write(to: file, atomically: true, encoding: .utf8)
        let h = EngineHarness()
        try h.settings.set(value: .text(file.path), for: .filenameNoiseTags)
        #expect(h.controller.codebookSource == "built-in")
        #expect(h.controller.codebook == .standard)
        #expect(h.refusals.count == 1)
        #expect(h.refusals[0].contains("bad.txt:2:"))
    }

    @Test("the built-in codebook is a modulated Gold code set of at least 63 codes")
    func builtIn() {
        let h = EngineHarness()
        #expect(h.controller.codebook.count >= 63)
        #expect(h.controller.codebookSource == "built-in")
    }
}

@Suite("Frame loop")
struct FrameLoopTests {
    @Test("deadlines are start + n × period, and a frame over 1.5 periods late is missed")
    func missedFrames() throws {
        let h = try EngineHarness { try $0.set(value: .bool(true), for: .soundOnMissedFrame) }
        let waiter = VirtualFrameWaiter(clock: h.clock)
        waiter.delay(frame: 10, by: 1.4 / 60)     // late but not missed
        waiter.delay(frame: 20, by: 1.6 / 60)     // missed; frame 21 can still run on time
        waiter.delay(frame: 30, by: 3.2 / 60)     // missed, and frame 31 is skipped
        let loop = FrameLoop(controller: h.controller, waiter: waiter)
        h.start()
        var timings: [FrameTiming] = []
        for _ in 0..<40 { timings.append(loop.step()) }
        #expect(timings.allSatisfy { abs($0.deadline - Double($0.index) / 60) < 1e-9 }, "no drift")
        #expect(!timings[10].missed)
        #expect(timings[20].missed)
        let missed = h.kinds.compactMap { if case .missedFrame(let i, _, let s) = $0 { return (i, s) } else { return nil } }
        #expect(missed.map(\.0) == [20, 30])
        #expect(missed.map(\.1) == [0, 1])
        #expect(loop.missedFrames == 1 + 1 + 1)
        #expect(timings[31].index == 32, "the loop skips frames more than 1.5 periods past")
        #expect(!timings[31].missed)
        #expect(h.kinds.filter { $0 == .sound(name: "missedFrame") }.count == 2)
    }

    @Test("a frame loop on the virtual clock renders one stimulus event per frame")
    func oneEventPerFrame() throws {
        let h = try EngineHarness { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        let loop = FrameLoop(controller: h.controller, waiter: VirtualFrameWaiter(clock: h.clock))
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        loop.run(frames: 120)
        let count = h.link.sent.filter { if case .stimulusEvent = $0 { return true } else { return false } }.count
        #expect(count == 120)
        #expect(h.controller.flickerFramesRendered == 120)
    }

    @Test("STIMULUSEVENT timestamps are int32 milliseconds that wrap, floored, as the SDK's")
    func timestampWrap() {
        #expect(MonotonicClock.utopiaTimestamp(for: 1.5) == 1500)
        #expect(MonotonicClock.utopiaTimestamp(for: 0.0019) == 1)
        #expect(MonotonicClock.utopiaTimestamp(for: -0.0001) == -1)
        #expect(MonotonicClock.utopiaTimestamp(for: 2_147_483.648) == Int32.min)
        #expect(MonotonicClock.utopiaTimestamp(for: 5_000_000) == 705_032_704)
        #expect(MonotonicClock.utopiaTimestamp(for: -5_000_000) == -705_032_704)
        #expect(MonotonicClock.utopiaTimestamp(for: 1e16) == -1_981_284_352)
        #expect(MonotonicClock.utopiaTimestamp(for: .infinity) == 0)
        #expect(MonotonicClock.utopiaTimestamp(for: .nan) == 0)
    }
}
