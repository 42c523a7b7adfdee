import NoiseTagging
import Testing

/// `FrameLoop.run`, the one loop of every run without a screen: it ends when
/// the caller is done, when a stop is requested or at the time limit, and a
/// press's feedback plays out before a finished run returns.
@Suite("Frame loop run")
struct FrameLoopRunTests {
    private func loop(_ h: EngineHarness) -> FrameLoop {
        h.start()
        return FrameLoop(controller: h.controller, waiter: VirtualFrameWaiter(clock: h.clock))
    }

    @Test("the run finishes on the frame the caller says it is done, with nothing left to show")
    func finishes() {
        let h = EngineHarness()
        let frames = loop(h)
        var seen = 0
        let ending = frames.run(stopRequested: { false }) { seen += 1; return seen < 10 }
        #expect(ending == .finished)
        #expect(frames.framesRun == 10 && seen == 10)
    }

    @Test("after a stop the user made (a suspended process) the frames go on from now; the stop's frames are not missed")
    func resumeAfterAStop() {
        let h = EngineHarness()
        let frames = loop(h)
        frames.run(frames: 5)
        h.clock.advance(by: 2)          // the process was stopped for two seconds
        frames.resume()
        frames.run(frames: 5)
        #expect(frames.missedFrames == 0 && frames.framesRun == 10)
        // Without it, the two seconds are 119 frames skipped and one late.
        let other = EngineHarness()
        let plain = loop(other)
        plain.run(frames: 5)
        other.clock.advance(by: 2)
        plain.run(frames: 5)
        #expect(plain.missedFrames > 100)
    }

    @Test("a press in the last frame: frames go on until its feedback has ended")
    func feedbackPlaysOut() throws {
        let h = try EngineHarness { try $0.set(value: .double(0.3), for: .touchFeedbackDuration) }
        let frames = loop(h)
        var seen = 0
        let ending = frames.run(stopRequested: { false }) {
            seen += 1
            guard seen == 30 else { return true }
            h.controller.touchPress(h.buttons[0])
            return false
        }
        #expect(ending == .finished)
        #expect(!h.controller.isShowingFeedback)
        #expect(frames.framesRun >= 30 + 17, "0.3 s of feedback is 18 frames at 60 Hz")
        #expect(h.presses.count == 1)
    }

    @Test("a stop request ends the run at once, even with feedback showing")
    func stops() {
        let h = EngineHarness()
        let frames = loop(h)
        var stop = false
        let ending = frames.run(stopRequested: { stop }) {
            if frames.framesRun == 5 { stop = true }
            return true
        }
        #expect(ending == .stopped)
        #expect(frames.framesRun == 5)
    }

    @Test("the time limit ends a run that never finishes, on the controller's clock")
    func timesOut() {
        let h = EngineHarness()
        let frames = loop(h)
        let start = h.clock.now
        let ending = frames.run(maxSeconds: 1, stopRequested: { false }) { true }
        #expect(ending == .timedOut)
        #expect(h.clock.now - start > 1 && h.clock.now - start < 1.05)
    }
}
