import UtopiaProtocol

/// The decoder's simulated amplifier on the wire clock: its samples start at
/// `origin` (wire ms) and it sees only the STIMULUSEVENTs the decoder
/// receives; the simulated user looks where the ``GazeScript`` says, trial
/// by trial.
///
/// ```swift
/// var simulation = AmplifierSimulation(DecoderSimulation(snr: 0.05, seed: 1, gaze: .target), origin: MonotonicClock.milliseconds())
/// simulation.newTrial(at: stamp, calibrating: true)
/// simulation.receive(event)
/// let packets = simulation.packets(upTo: MonotonicClock.milliseconds() - AmplifierSimulation.lag)
/// ```
public struct AmplifierSimulation: Sendable {
    /// How far (ms) the simulated amplifier's packets trail the wire clock:
    /// the STIMULUSEVENTs of a frame reach it before the samples that frame
    /// lights, as they would a real amplifier. The decoder's built-in
    /// amplifier and ``SimulatedAcquisition`` both ask for packets this far behind.
    public static let lag = 60.0

    /// The header the simulated amplifier sends.
    public let header: DataHeader
    private var amplifier: SimulatedAmplifier
    private let origin: Double
    private let originStamp: Int32
    private let packetSamples: Int
    private let gaze: GazeScript
    private var goalIndex = 0
    private var lastGazeTime = 0.0
    private var lastEventTime = 0.0
    /// A prediction trial has begun whose first frame has not been seen yet.
    private var predictionPending = false

    /// An amplifier whose sample 0 is at wire time `origin` (ms).
    public init(_ simulation: DecoderSimulation, origin: Double) {
        amplifier = SimulatedAmplifier(settings: simulation.amplifier,
                                       subject: SimulatedSubject(seed: simulation.seed, channels: simulation.amplifier.channels),
                                       seed: simulation.seed &+ 1)
        self.origin = origin.rounded(.down)
        originStamp = MonotonicClock.utopiaTimestamp(milliseconds: origin)
        packetSamples = max(1, simulation.packetSamples)
        gaze = simulation.gaze
        header = DataHeader(timestamp: originStamp, channelCount: Int32(simulation.amplifier.channels),
                            sampleRate: Float(simulation.amplifier.sampleRate),
                            labels: (1...simulation.amplifier.channels).map { "sim\($0)" })
    }

    /// The amplifier's own time (ms) of a wire timestamp.
    private func localTime(_ stamp: Int32) -> Double { Double(stamp &- originStamp) }

    /// A NEWTARGET at wire time `stamp`: in calibration the user looks at
    /// the cued target (object 0). A prediction trial is decided at its first
    /// STIMULUSEVENT, when the user sees the screen: a cued one (Verify, whose
    /// events carry object 0) is looked at like calibration, any other at the
    /// script's next goal or the focus, if any.
    public mutating func newTrial(at stamp: Int32, calibrating: Bool) {
        predictionPending = false
        if calibrating {
            look(at: gaze != .none ? 0 : nil, stamp: stamp)
        } else {
            look(at: nil, stamp: stamp)
            predictionPending = true
        }
    }

    /// Where the user looks in a prediction trial whose first frame is `event`.
    private mutating func choosePredictionTarget(seeing event: StimulusEvent) {
        predictionPending = false
        var target: UInt8?
        if event.objIDs.contains(0) {
            if gaze != .none { target = 0 }
        } else if case .goals(let goals) = gaze, goalIndex < goals.count {
            target = goals[goalIndex]
            goalIndex += 1
        } else if case .follow(let focus) = gaze {
            target = focus.objectID
        }
        if target != nil { look(at: target, stamp: event.timestamp) }
    }

    /// The user stops looking at anything (calibration or prediction ended).
    public mutating func lookAway(at stamp: Int32) {
        predictionPending = false
        look(at: nil, stamp: stamp)
    }

    private mutating func look(at target: UInt8?, stamp: Int32) {
        let time = max(lastGazeTime, localTime(stamp), amplifier.nextSampleTime)
        amplifier.user.look(at: target, from: time)
        lastGazeTime = time
    }

    /// Shows the amplifier one frame; frames from before it started, or out of order, are skipped.
    public mutating func receive(_ event: StimulusEvent) {
        let time = localTime(event.timestamp)
        guard time >= 0, time >= lastEventTime else { return }
        lastEventTime = time
        if predictionPending { choosePredictionTarget(seeing: event) }
        var shifted = event
        shifted.timestamp = Int32(truncatingIfNeeded: Int64(time))
        amplifier.receive(shifted)
    }

    /// The DATAPACKETs of every whole packet recorded before wire time `now` (ms), stamped on the wire clock.
    public mutating func packets(upTo now: Double) -> [DataPacket] {
        let local = now - origin
        var out: [DataPacket] = []
        let period = 1000 / amplifier.settings.sampleRate
        while amplifier.nextSampleTime + Double(packetSamples - 1) * period <= local, out.count < 400 {
            var packet = amplifier.readPacket(samples: packetSamples)
            packet.timestamp = packet.timestamp &+ originStamp
            out.append(packet)
        }
        return out
    }
}
