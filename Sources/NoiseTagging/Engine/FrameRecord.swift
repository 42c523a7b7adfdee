/// What one frame showed, for recordings: its timing, the trial, and the
/// stimulus states sent (empty outside the flicker phase).
public struct FrameRecord: Sendable {
    /// Frame index from the frame loop (without one, the frame due at the tick: see ``NoiseTagController/tick(frame:)``).
    public let index: Int
    /// When the frame was due, engine-clock seconds.
    public let deadline: Double
    /// When it ran.
    public let time: Double
    /// More than 1.5 periods late.
    public let missed: Bool
    /// The running trial's number, nil between trials.
    public let trial: Int?
    /// The running trial's phase, nil between trials.
    public let phase: TrialPhase?
    /// Object IDs of the STIMULUSEVENT sent on this frame (empty when none was sent).
    public let objIDs: [UInt8]
    /// Their states, same order.
    public let states: [UInt8]
}
