/// Counters of a decoder link (ZeroMQ or a Utopia hub's TCP), safe to read from any thread.
public struct DecoderLinkStatistics: Equatable, Sendable, Codable {
    /// Messages handed to libzmq.
    public var sent = 0
    /// Messages that could not be sent (no decoder connected, or its queue full).
    public var unsent = 0
    /// Messages decoded from the decoder.
    public var received = 0
    /// Frames that did not decode; each is reported as a problem.
    public var malformed = 0
    /// Predictions dropped because the engine fell behind.
    public var droppedPredictions = 0
    /// Other messages dropped because the engine fell behind.
    public var droppedOther = 0
    /// Messages waiting for the I/O thread when the snapshot was taken; at
    /// ``ZeroMQDecoderLink/outboundCapacity`` a new one pushes out the oldest.
    public var queued = 0
    /// Connections completed with a decoder (or hub): the first and every reconnection.
    public var connections = 0
}
