/// One frame of the frame loop: its index, when it was due, when it ran.
///
/// Frame n is due at `start + n × period` (never an accumulated sleep). A
/// frame that runs more than 1.5 periods after it was due is missed.
public struct FrameTiming: Equatable, Sendable, Codable {
    /// Frame number since the loop started.
    public let index: Int
    /// When the frame was due, engine-clock seconds.
    public let deadline: Double
    /// When it actually ran.
    public let time: Double
    /// The frame period, seconds.
    public let period: Double

    /// Creates a frame timing.
    public init(index: Int, deadline: Double, time: Double, period: Double) {
        self.index = index
        self.deadline = deadline
        self.time = time
        self.period = period
    }

    /// Seconds after the deadline.
    public var lateness: Double { time - deadline }

    /// True when the frame ran more than 1.5 periods late.
    public var missed: Bool { lateness > 1.5 * period }
}
