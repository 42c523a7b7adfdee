import UtopiaProtocol

/// The simulated amplifier as an acquisition client of its own: it hears
/// the engine's messages (MODECHANGE, NEWTARGET, STIMULUSEVENT) as any
/// client of a decoder or hub would, lets the simulated user look as the
/// gaze script says (the cued target in calibration, the goals in
/// successive prediction trials), and streams the subject's EEG as a
/// DATAHEADER and DATAPACKETs, 60 ms behind the wire clock like the
/// embedded one. `noisetag decoder amplifier` runs it against any
/// decoder or Utopia hub, so a decoder nobody here wrote reads the same
/// simulated subject as the reference decoder.
///
/// ```swift
/// var acquisition = SimulatedAcquisition(DecoderSimulation(snr: 0.05, seed: 4, gaze: .target), now: MonotonicClock.milliseconds())
/// link.send(.dataHeader(acquisition.header))
/// for message in link.receive() { acquisition.hear(message.message) }
/// for packet in acquisition.packets(upTo: MonotonicClock.milliseconds()) { link.send(.dataPacket(packet)) }
/// ```
public struct SimulatedAcquisition: Sendable {
    private var simulation: AmplifierSimulation
    private var mode: DecoderMode = .idle
    /// The header the stream starts with.
    public var header: DataHeader { simulation.header }

    /// A simulated amplifier whose clock starts at wire time `now` (ms).
    public init(_ settings: DecoderSimulation, now: Double) {
        simulation = AmplifierSimulation(settings, origin: now)
    }

    /// Takes one message the engine sent (others are ignored).
    public mutating func hear(_ message: UtopiaMessage) {
        switch message {
        case .modeChange(let change):
            // As the decoder: a mode it does not support changes nothing.
            guard let next = DecoderMode(modeText: change.newMode) else { return }
            if next != mode { simulation.lookAway(at: change.timestamp) }
            mode = next == .reset ? .idle : next
        case .newTarget(let target) where mode == .calibration || mode == .prediction:
            simulation.newTrial(at: target.timestamp, calibrating: mode == .calibration)
        case .stimulusEvent(let event):
            simulation.receive(event)
        default:
            break
        }
    }

    /// The packets recorded up to wire time `now` (ms), 60 ms behind it.
    public mutating func packets(upTo now: Double) -> [DataPacket] {
        simulation.packets(upTo: now - AmplifierSimulation.lag)
    }
}
