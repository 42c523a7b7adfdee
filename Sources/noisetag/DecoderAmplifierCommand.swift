import ArgumentParser
import DecoderBridge
import DecoderService
import Foundation
import IOThreads
import Simulation
import UtopiaProtocol
import ZeroMQTransport

/// `noisetag decoder amplifier --to utopia://HOST:PORT`: the simulated
/// amplifier as an acquisition client of a Utopia hub (MindAffect's, for
/// one), so that any decoder on the hub reads the simulated subject.
struct DecoderAmplifierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amplifier",
        abstract: "Stream the simulated subject's EEG to a Utopia hub as an acquisition client.",
        discussion: """
        Connects to --to (a Utopia hub, utopia://HOST:PORT), subscribes to the engine's \
        STIMULUSEVENT, NEWTARGET and MODECHANGE messages the hub forwards, and streams \
        the simulated subject's EEG (Protocols/simulator.md) as DATAHEADER and DATAPACKETs: \
        the user looks at the cued target in calibration and at --user's goals in \
        successive prediction trials. Heartbeats and SUBSCRIBE go out every second, the \
        header again after each reconnection. Runs until SIGINT or SIGTERM (exit 0).
        """)

    @Option(help: "The hub to stream to: utopia://HOST:PORT.")
    var to: String

    @OptionGroup var subject: SimulatedSubjectOptions

    @Option(help: "Where the simulated user looks: target (cued target in calibration), none, or goal:ID,ID,… (those objects in successive prediction trials).")
    var user = "target"

    @Option(parsing: .unconditional, help: "Mains frequency, Hz (50 or 60).")
    var lineFrequency = 50.0

    func validate() throws {
        guard to.trimmingCharacters(in: .whitespaces).hasPrefix("utopia://") else {
            throw ValidationError("--to \(to): expected utopia://HOST:PORT (a hub forwards the engine's stimulus messages to the amplifier)")
        }
        do { _ = try DecoderEndpoint.utopiaAddress(to) } catch { throw ValidationError("--to: \(error)") }
        guard GazeScript(argument: user) != nil else { throw ValidationError("--user \(user): expected target, none or goal:ID,ID,…") }
        try subject.check()
        guard lineFrequency == 50 || lineFrequency == 60 else { throw ValidationError("--line-frequency \(lineFrequency): 50 or 60") }
    }

    func run() throws {
        var simulation = DecoderSimulation(snr: subject.snr, seed: subject.seed, gaze: GazeScript(argument: user)!)
        simulation.amplifier.lineFrequency = lineFrequency
        let link: UtopiaTCPDecoderLink
        do { link = try UtopiaTCPDecoderLink(endpoint: to, reconnectInterval: 0.5) } catch { throw CommandFailure("\(error)") }
        defer { link.close() }
        StopSignal.install()
        var acquisition = SimulatedAcquisition(simulation, now: MonotonicClock.milliseconds())
        let output = FileHandle.standardOutput
        output.writeIfOpen(Data("amplifier connecting to \(to) (it streams once connected): 8 channels at 250 Hz, subject \(subject.seed), SNR \(subject.snr), user \(user)\n".utf8))
        var lastBeat = -Double.infinity
        var connected = false
        var packets = 0
        while !StopSignal.requested {
            let now = MonotonicClock.milliseconds()
            if link.isConnected != connected {
                connected = link.isConnected
                if connected { link.send(.dataHeader(acquisition.header)) }
                output.writeIfOpen(Data("amplifier \(connected ? "connected to" : "lost") the hub\n".utf8))
            }
            for message in link.receive() { acquisition.hear(message) }
            for problem in link.receiveProblems() { output.writeIfOpen(Data("amplifier: \(problem)\n".utf8)) }
            for packet in acquisition.packets(upTo: now) {
                link.send(.dataPacket(packet))
                packets += 1
            }
            if now - lastBeat >= 1000 {
                lastBeat = now
                link.send(.subscribe(Subscribe(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), messageIDs: "ENM")))
                link.send(.heartbeat(Heartbeat(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now), stateMessage: "amplifier")))
            }
            usleep(10_000)
        }
        output.writeIfOpen(Data("amplifier stopped: \(packets) packets sent\n".utf8))
    }
}
