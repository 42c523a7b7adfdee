/// Drives a controller one display frame at a time on drift-free deadlines:
/// frame n is due at `start + n × period`, `period` = 1 / `preferredNFramesPerSecond`.
/// The loop owns the frame index and period and hands both to the
/// controller with every tick. When the setting changes, the next frame
/// keeps its deadline and index and the frames after it follow the new
/// period.
///
/// A frame that runs more than 1.5 periods late is missed: it is counted and
/// reported on the event stream (with a sound event when
/// `soundOnMissedFrame`). Frames whose deadline is already more than 1.5
/// periods past when the loop gets to them are skipped, counted as missed
/// too, so the flicker stays locked to the clock.
public final class FrameLoop {
    /// The controller ticked every frame.
    public let controller: NoiseTagController
    private let waiter: FrameWaiter
    /// Seconds per frame: 1 / `preferredNFramesPerSecond`, read before each frame.
    public private(set) var period: Double
    /// Frames run so far.
    public private(set) var framesRun = 0
    /// Frames run more than 1.5 periods late, plus frames skipped to catch up.
    public private(set) var missedFrames = 0
    private var start: Double?
    private var nextIndex = 0

    /// Creates a loop; it starts timing at its first ``step()``.
    public init(controller: NoiseTagController, waiter: FrameWaiter) {
        self.controller = controller
        self.waiter = waiter
        self.period = 1 / Double(controller.settings.intFor(.preferredNFramesPerSecond))
    }

    /// Waits for the next deadline, then ticks the controller with the frame's timing.
    @discardableResult
    public func step() -> FrameTiming {
        var origin: Double
        if let start {
            origin = start
        } else {
            origin = controller.clock.now
            start = origin
        }
        let wanted = 1 / Double(controller.settings.intFor(.preferredNFramesPerSecond))
        if wanted != period {
            // Re-base so that the next frame is due when it was, then step by the new period.
            origin += Double(nextIndex) * (period - wanted)
            start = origin
            period = wanted
        }
        let deadline = origin + Double(nextIndex) * period
        waiter.wait(until: deadline)
        let now = controller.clock.now
        let timing = FrameTiming(index: nextIndex, deadline: deadline, time: now, period: period)
        let firstStillOnTime = Int(((now - origin) / period - 1.5).rounded(.up))
        let next = max(nextIndex + 1, firstStillOnTime)
        let skipped = next - nextIndex - 1
        if timing.missed || skipped > 0 {
            missedFrames += (timing.missed ? 1 : 0) + skipped
            controller.reportMissedFrame(timing, skipped: skipped)
        }
        framesRun += 1
        nextIndex = next
        controller.tick(frame: timing)
        return timing
    }

    /// Goes on after a stop the user made (a suspended process): the next
    /// frame is due now, and the frames of the stop are not missed ones
    /// (nothing was to be shown meanwhile).
    public func resume() {
        guard start != nil else { return }
        start = controller.clock.now - Double(nextIndex) * period
    }

    /// Runs `count` frames.
    public func run(frames count: Int) {
        for _ in 0..<max(count, 0) { step() }
    }
}
