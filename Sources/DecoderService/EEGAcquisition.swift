import Decoding
import Simulation
import UtopiaProtocol

/// Where the live decoder's EEG comes from: DATAHEADERs and DATAPACKETs of
/// acquisition clients through an ``AcquisitionStream``, or its built-in
/// simulated amplifier (client EEG is then ignored and counted). It keeps
/// the ``DecoderInputRecord``s of what it consumed when asked to, and logs
/// bad input at most once a second.
struct EEGAcquisition: Sendable {
    /// Samples accepted from one packet: repaired, and as sent when the stream had to repair any.
    struct Accepted: Sendable {
        let block: SampleBlock
        let asSent: [[Double]]?
    }

    private var stream = AcquisitionStream()
    private var simulation: AmplifierSimulation?
    /// The inputs consumed since the last ``takeRecords()``; nil when not recording them.
    private var records: [DecoderInputRecord]?
    private var ignoredExternal = 0
    private var lastProblemLogAt = -Double.infinity
    private var loggedProblems: [PacketProblem: Int] = [:]
    private var loggedOutOfOrder = 0
    private var loggedIgnoredExternal = 0

    /// An acquisition that records its inputs when `recordingInput`; with
    /// `simulation`, its amplifier starts at wire time `now` (ms).
    init(simulation settings: DecoderSimulation?, now: Double, recordingInput: Bool) {
        if recordingInput { records = [] }
        if let settings { simulation = AmplifierSimulation(settings, origin: now) }
    }

    /// True when the built-in simulated amplifier supplies the EEG.
    var isSimulated: Bool { simulation != nil }
    /// True when it keeps records of its inputs.
    var isRecording: Bool { records != nil }
    /// How often each acquisition problem occurred.
    var problems: [PacketProblem: Int] { stream.problems }

    /// The simulated amplifier's DATAHEADER, recorded and taken by the
    /// stream; nil without a simulation or when the stream rejects it.
    mutating func startSimulation(now: Double) -> DataHeader? {
        guard let header = simulation?.header else { return nil }
        record(.dataHeader(header), now: now)
        return stream.receive(header) ? header : nil
    }

    /// Keeps `message` as consumed at `now`, when recording input.
    mutating func record(_ message: UtopiaMessage, now: Double) {
        guard records != nil, let record = DecoderInputRecord(message, wireMilliseconds: now) else { return }
        records?.append(record)
    }

    /// The inputs consumed since the last call (empty when not recording).
    mutating func takeRecords() -> [DecoderInputRecord] {
        guard let taken = records, !taken.isEmpty else { return [] }
        records = []
        return taken
    }

    /// A client's DATAHEADER: the header to start the EEG with, or nil
    /// when the stream rejects it or the simulated amplifier is in use.
    mutating func receive(_ header: DataHeader, now: Double) -> DataHeader? {
        guard simulation == nil else {
            ignoredExternal += 1
            return nil
        }
        record(.dataHeader(header), now: now)
        return stream.receive(header) ? header : nil
    }

    /// A client's DATAPACKET: its samples, or nil when the stream rejects
    /// it or the simulated amplifier is in use.
    mutating func receive(_ packet: DataPacket, now: Double) -> Accepted? {
        guard simulation == nil else {
            ignoredExternal += 1
            return nil
        }
        record(.dataPacket(packet), now: now)
        return accept(packet)
    }

    /// The simulated amplifier's packets due by `now`, recorded and taken
    /// by the stream (none without a simulation).
    mutating func simulatedPackets(upTo now: Double) -> [Accepted] {
        guard var simulation else { return [] }
        var accepted: [Accepted] = []
        for packet in simulation.packets(upTo: now - AmplifierSimulation.lag) {
            record(.dataPacket(packet), now: now)
            if let samples = accept(packet) { accepted.append(samples) }
        }
        self.simulation = simulation
        return accepted
    }

    /// A packet through the stream; the samples it had to repair still
    /// count against the channel's quality and show in the signal view as sent.
    private mutating func accept(_ packet: DataPacket) -> Accepted? {
        let repairedBefore = stream.problems[.nonFiniteSample, default: 0]
        guard let block = stream.receive(packet) else { return nil }
        let repaired = stream.problems[.nonFiniteSample, default: 0] > repairedBefore
        return Accepted(block: block, asSent: repaired ? block.samples.indices.map { c in packet.samples.map { Double($0[c]) } } : nil)
    }

    // MARK: The simulated user

    /// Shows the simulated amplifier one frame.
    mutating func show(_ event: StimulusEvent) {
        simulation?.receive(event)
    }

    /// A trial starts at wire time `stamp`: the simulated user looks as the gaze script says.
    mutating func newTrial(at stamp: Int32, calibrating: Bool) {
        simulation?.newTrial(at: stamp, calibrating: calibrating)
    }

    /// The simulated user stops looking at anything.
    mutating func lookAway(at stamp: Int32) {
        simulation?.lookAway(at: stamp)
    }

    // MARK: Bad input

    /// Logs the problems new since the last report, at most once a second:
    /// the stream's, STIMULUSEVENTs out of order (`outOfOrderEvents` so far)
    /// and client EEG ignored for the simulated amplifier.
    mutating func logProblems(outOfOrderEvents: Int, into outbox: inout DecoderOutbox) {
        guard outbox.now - lastProblemLogAt >= 1000 else { return }
        lastProblemLogAt = outbox.now
        var lines: [String] = []
        for (problem, count) in stream.problems.sorted(by: { "\($0.key)" < "\($1.key)" }) where count > loggedProblems[problem, default: 0] {
            lines.append("\(count - loggedProblems[problem, default: 0])× \(problem) (\(count) in all)")
            loggedProblems[problem] = count
        }
        if outOfOrderEvents > loggedOutOfOrder {
            lines.append("\(outOfOrderEvents - loggedOutOfOrder)× STIMULUSEVENT timestamp went back: ignored")
            loggedOutOfOrder = outOfOrderEvents
        }
        if ignoredExternal > loggedIgnoredExternal {
            lines.append("\(ignoredExternal - loggedIgnoredExternal)× DATAHEADER/DATAPACKET from a client ignored: the simulated amplifier is in use")
            loggedIgnoredExternal = ignoredExternal
        }
        if !lines.isEmpty { outbox.log("bad input: " + lines.joined(separator: "; ")) }
    }
}
