import DecoderBridge
import DecoderService
import Decoding
import Foundation
import NoiseTagging
import Simulation
import ZeroMQTransport

/// One demo run's parts, wired: the decoder (the reference decoder on a
/// thread of this process, or an external one), the engine's ZeroMQ link
/// to it, the controller on the monotonic clock, the keyboard, the
/// simulated user, the decoder reports and the scenario, with a recording
/// started. The embedded decoder's inputs go into the recording as
/// `decoder-input.csv` (``DecoderInputWriter``), for a ``Redecoder``.
/// ``close()`` ends the recording ("App ended") and stops the decoder.
///
/// ```swift
/// let session = try DemoSession(options: DemoOptions())
/// defer { session.close() }
/// let loop = FrameLoop(controller: session.controller, waiter: RealTimeFrameWaiter())
/// session.scenario.start()
/// while session.scenario.stage != .finished { loop.step(); session.scenario.step() }
/// ```
public final class DemoSession {
    /// The options it was made with.
    public let options: DemoOptions
    /// The engine.
    public let controller: NoiseTagController
    /// The keyboard unit.
    public let keyboard = SpellerKeyboard()
    /// What the decoder said.
    public let reports = DecoderReports()
    /// The walk-through.
    public let scenario: DemoScenario
    /// The embedded decoder, nil with an external one.
    public let decoder: DecoderServer?
    /// The endpoint the engine talks to.
    public let endpoint: String
    /// Where the simulated user looks (the simulated amplifier reads it when
    /// each trial starts); unused without a simulated user.
    public let focus: GazeFocus
    private let link: any BridgeLink
    private let context: ZeroMQContext?

    /// Why a session could not start: names the part and the reason.
    public struct Failure: Error, CustomStringConvertible {
        /// The message.
        public let description: String
    }

    /// Starts the decoder (unless external), connects the engine and starts a recording.
    public init(options: DemoOptions, settings: NoiseTagSettings = NoiseTagSettings()) throws(Failure) {
        self.options = options
        let focus = GazeFocus()
        self.focus = focus
        let inputWriter = DecoderInputWriter()
        var server: DecoderServer?
        var context: ZeroMQContext?
        if let external = options.externalDecoder {
            do { endpoint = try DecoderEndpoint.resolve(external) } catch { throw Failure(description: "\(error)") }
        } else {
            var decoderSettings = options.decoderSettings
            if decoderSettings.calibrationFolder == nil {
                decoderSettings.calibrationFolder = options.recordings.root.appendingPathComponent("decoder-calibrations", isDirectory: true)
            }
            if options.simulatedUser {
                var simulation = DecoderSimulation(snr: options.snr, seed: options.seed, gaze: .follow(focus))
                simulation.amplifier.displayLatency = options.displayLatency
                simulation.amplifier.lineFrequency = decoderSettings.lineFrequency
                decoderSettings.simulation = simulation
                context = ZeroMQContext()
                endpoint = "inproc://noisetag-demo-decoder"
            } else {
                do { endpoint = try DecoderEndpoint.resolve(options.embeddedEndpoint ?? settings.textFor(.decoderEndpoint)) } catch {
                    throw Failure(description: "\(error)")
                }
                guard !endpoint.hasPrefix("utopia://") else {
                    throw Failure(description: "the embedded decoder binds a ZeroMQ endpoint; decoderEndpoint \(endpoint) names a Utopia hub (use --decoder for an external one)")
                }
            }
            do {
                server = try DecoderServer(endpoint: endpoint, settings: decoderSettings, context: context ?? .shared,
                                           inputSink: { inputWriter.receive($0) })
            } catch {
                throw Failure(description: "cannot start the embedded decoder on \(endpoint): \(error)")
            }
        }
        do {
            link = try BridgeLinks.connect(endpoint: endpoint, settings: nil, context: context,
                                           curve: options.externalDecoder == nil ? nil : options.externalDecoderCurve)
        } catch {
            server?.stop()
            throw Failure(description: "\(error)")
        }
        decoder = server
        self.context = context
        controller = NoiseTagController(clock: MonotonicClock.shared, settings: settings, decoderLink: link)
        if server != nil { inputWriter.attach(to: controller.inbox) }
        let user = options.simulatedUser && options.externalDecoder == nil ? SpellingUser(goal: options.goal, focus: focus) : nil
        scenario = DemoScenario(controller: controller, keyboard: keyboard, reports: reports, user: user, goal: options.goal)
        scenario.signalCheckSeconds = options.signalCheckSeconds
        scenario.resultsSeconds = options.resultsSeconds
        scenario.zeroTraining = options.zeroTrain
        let reports = reports
        controller.observeDecoderTraffic { reports.hear($0) }
        let closed = recordingsClosed
        controller.events.subscribe { event in
            if case .recordingEnded(let folder, _) = event.kind { closed.names.append(folder) }
        }
        var early: [NoiseTagEvent] = []
        let token = controller.events.subscribe { early.append($0) }
        controller.startRecording(in: options.recordings)
        controller.events.unsubscribe(token)
        startupEvents = early
    }

    /// The folder names of the recordings the session closed, in order
    /// (all of them once ``close()`` has run), under `options.recordings`.
    public var closedRecordingFolders: [String] { recordingsClosed.names }
    private final class Names { var names: [String] = [] }
    private let recordingsClosed = Names()

    /// The events of the session's start (the first recording starting,
    /// or the problem that kept it off), for a printer that subscribes
    /// once the session is made.
    public private(set) var startupEvents: [NoiseTagEvent] = []

    /// Ends the recording, disconnects and stops the embedded decoder; later calls do nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        controller.trialsAreRunning = false
        controller.stopRecording()
        link.close()
        decoder?.stop()
        context?.terminate()
    }
    private var closed = false

    /// Who the user is, for headers and summaries.
    public var userDescription: String {
        if options.externalDecoder != nil { return "external decoder at \(endpoint)" }
        if scenario.user != nil {
            return "embedded decoder, simulated amplifier and user (SNR \(options.snr), subject \(options.seed))"
        }
        return "embedded decoder on \(endpoint), waiting for an acquisition client"
    }
}
