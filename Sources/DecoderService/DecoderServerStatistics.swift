import UtopiaProtocol

/// Counters of a running ``DecoderServer``, safe to read from any thread.
public struct DecoderServerStatistics: Equatable, Sendable {
    /// Peers heard from within the timeout.
    public var peers = 0
    /// Messages decoded from peers.
    public var received = 0
    /// Frames that did not decode (dropped and logged).
    public var malformedFrames = 0
    /// Frames handed to libzmq.
    public var sent = 0
    /// Frames libzmq would not take (a peer's queue full).
    public var unsent = 0
    /// PREDICTEDTARGETPROB messages produced.
    public var predictions = 0
    /// Calibrations fitted.
    public var calibrations = 0
    /// The decoder's mode.
    public var mode: DecoderMode = .idle
    /// The last recommended certainty threshold, if a calibration was fitted.
    public var recommendedCertainty: Double?

    /// All zero.
    public init() {}
}
