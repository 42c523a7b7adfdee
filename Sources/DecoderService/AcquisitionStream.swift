import Decoding
import UtopiaProtocol

/// The decoder's intake of DATAHEADER and DATAPACKET messages from an
/// acquisition client: checks each packet against its header, turns rows of
/// float32 samples into channels × samples, and gives every sample a wire
/// time. A packet's timestamp is its last sample's time; earlier samples are
/// spaced by the header's sample period. Int32 timestamps wrap; times here
/// are unwrapped. Bad input is counted in ``problems`` (for LOG messages),
/// never a crash: see ``PacketProblem`` for what is rejected and what is
/// repaired.
///
/// ```swift
/// var stream = AcquisitionStream()
/// stream.receive(DataHeader(timestamp: 0, channelCount: 8, sampleRate: 250, labels: []))
/// if let block = stream.receive(packet) { /* block.samples: 8 × n, block.times */ }
/// ```
public struct AcquisitionStream: Sendable {
    /// The header in force, once a valid one arrived.
    public private(set) var header: DataHeader?
    /// How often each problem occurred.
    public private(set) var problems: [PacketProblem: Int] = [:]
    private var lastFinite: [Double] = []
    private var lastStamp: Int32?
    private var unwrappedBase = 0.0

    /// A stream waiting for its header.
    public init() {}

    /// Takes a DATAHEADER; returns false (and counts the problem) if it has no
    /// channels or no positive, finite sample rate. A new header restarts the stream.
    @discardableResult
    public mutating func receive(_ newHeader: DataHeader) -> Bool {
        guard newHeader.channelCount > 0, newHeader.sampleRate.isFinite, newHeader.sampleRate > 0 else {
            problems[.invalidHeader, default: 0] += 1
            return false
        }
        header = newHeader
        lastFinite = [Double](repeating: 0, count: Int(newHeader.channelCount))
        lastStamp = nil
        return true
    }

    /// Takes a DATAPACKET; returns its samples, or nil when it is rejected.
    public mutating func receive(_ packet: DataPacket) -> SampleBlock? {
        guard let header else { return reject(.dataBeforeHeader) }
        let channels = Int(header.channelCount)
        guard !packet.samples.isEmpty else { return reject(.emptyPacket) }
        guard packet.samples.allSatisfy({ $0.count == channels }) else { return reject(.channelCountMismatch) }
        if let lastStamp, packet.timestamp &- lastStamp < 0 { return reject(.timestampWentBack) }
        if let lastStamp { unwrappedBase += Double(packet.timestamp &- lastStamp) } else { unwrappedBase = Double(packet.timestamp) }
        lastStamp = packet.timestamp
        let n = packet.samples.count
        let period = 1000 / Double(header.sampleRate)
        var out = [[Double]](repeating: [Double](repeating: 0, count: n), count: channels)
        for (i, row) in packet.samples.enumerated() {
            for c in 0..<channels {
                let v = Double(row[c])
                if v.isFinite {
                    lastFinite[c] = v
                    out[c][i] = v
                } else {
                    problems[.nonFiniteSample, default: 0] += 1
                    out[c][i] = lastFinite[c]
                }
            }
        }
        return SampleBlock(samples: out, times: (0..<n).map { unwrappedBase - Double(n - 1 - $0) * period })
    }

    private mutating func reject(_ problem: PacketProblem) -> SampleBlock? {
        problems[problem, default: 0] += 1
        return nil
    }
}
