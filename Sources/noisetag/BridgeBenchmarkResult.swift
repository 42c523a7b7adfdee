/// What `noisetag bench bridge` measured.
struct BridgeBenchmarkResult: Encodable {
    /// Objects in each STIMULUSEVENT.
    let objects: Int
    /// Timed exchanges behind each latency summary.
    let samples: Int
    /// Engine `send` to the decoder's receive, paced one at a time.
    let oneWay: LatencySummary
    /// STIMULUSEVENT out through the link, PREDICTEDTARGETPROB back and drained by `receive()`.
    let roundTrip: LatencySummary
    /// The same exchange on bare libzmq sockets: the floor.
    let bareRoundTrip: LatencySummary
    /// Messages sent in the throughput burst.
    let burst: Int
    /// Burst messages the decoder received.
    let delivered: Int
    /// Burst messages the link counted unsent (its queue full).
    let unsent: Int
    /// STIMULUSEVENTs per second delivered to the decoder in the burst.
    let messagesPerSecond: Double

    /// Link round-trip median over the bare libzmq median.
    var roundTripRatio: Double { Double(roundTrip.medianNs) / Double(max(bareRoundTrip.medianNs, 1)) }
}
