import Codes
import Foundation
import NoiseTagging
import UtopiaProtocol

/// A scripted session recorded into a folder, for replay's tests and
/// `noisetag bench replay`: a grid of buttons, two training trials, Test
/// trials, then Verify, at 60 frames/s on a virtual clock with ticks 0–1 ms
/// late; a scripted decoder on the in-memory link predicts each trial's
/// intended object (in Verify the cued target) with a certainty that grows
/// with the frames it has seen, after half a second of a wrong guess; the app
/// touches, blocks, changes settings and the mode between ticks. The whole
/// session is deterministic.
public final class ScriptedSession {
    /// The temporary recordings root (removed with the session).
    public let root: URL
    let clock = VirtualClock(start: 1000)
    let settings = NoiseTagSettings()
    let link = InMemoryDecoderLink()
    let controller: NoiseTagController
    let buttons: [NoiseTagButton]
    /// The recording's folder.
    public private(set) var folder: URL!
    let clockMovesInCalls: Bool
    var inCall = false

    /// What the app does, at seconds after the start of a trial (between
    /// ticks); `decoderRestart` is the decoder's doing: its link reports a
    /// new connection, as for a decoder restarted within `decoderTimeout`.
    public enum AppStep: Sendable {
        case touch(Int), block(Double), setting(NoiseTagSettingTitles, NoiseTagSettingValue), mode(NoiseTagMode), trialsOff
        case decoderRestart
    }

    /// Records the session. `steps` are the app's calls (a touch names a
    /// button by its index, from 0); `configure` may change the settings
    /// first. With `clockMovesInCalls`, the clock moves on by 0.3 ms while
    /// the app handles each event a call raises, as a real clock does (the
    /// messages a call sends after such an event go out later than it).
    public init(seconds: Double = 30, buttons count: Int = 6,
                steps: [(trial: Int, after: Double, step: AppStep)] = ScriptedSession.defaultSteps,
                clockMovesInCalls: Bool = false,
                configure: (NoiseTagSettings) throws -> Void = { _ in }) throws {
        self.clockMovesInCalls = clockMovesInCalls
        root = FileManager.default.temporaryDirectory.appendingPathComponent("noisetag-replay-\(UUID().uuidString)")
        try settings.set(value: .text("TrainGeneric"), for: .mode)
        try settings.set(value: 2, for: .nGenericTrainTrials)
        try settings.set(value: 1.0, for: .trialDurationGenericTrain)
        try settings.set(value: 0.4, for: .cueDuration)
        try settings.set(value: 0.2, for: .pauseAfterCue)
        try settings.set(value: 0.9, for: .certaintyRequiredForPress)
        try settings.set(value: 3.0, for: .maxTestTrialDuration)
        try settings.set(value: 0.5, for: .feedbackDuration)
        try settings.set(value: 0.3, for: .minTrialDuration)
        try configure(settings)
        link.monitorsLiveness = true
        controller = NoiseTagController(clock: clock, settings: settings, decoderLink: link, seed: 42)
        let view = NoiseTagView()
        buttons = (1...max(2, count)).map { NoiseTagButton(identifier: "b\($0)") }
        for case (let trial, _, .touch(let index)) in steps where !buttons.indices.contains(index) {
            throw ScriptedSessionError(trial: trial, button: index, buttons: buttons.count)
        }
        for button in buttons { view.add(button) }
        let wall = SettableWallClock(Date(timeIntervalSince1970: 1_795_000_000), following: clock)
        controller.startRecording(in: RecordingStore(root: root), wallClock: wall, timeZone: TimeZone(identifier: "UTC")!)
        controller.push(view: view, forNoiseTaggingWithDelegate: Menu())
        let decoder = ScriptedPredictor(link: link)
        controller.events.subscribe { [clock, unowned self] event in
            if case .trialStarted(let start) = event.kind { decoder.trialStarted(start) }
            if inCall, clockMovesInCalls { clock.advance(to: clock.now + 0.0003) }
        }
        link.onSend = { decoder.heard($0) }
        controller.trialsAreRunning = true
        run(seconds: seconds, steps: steps)
        controller.stopRecording()
        let name = RecordingStore(root: root).recordings().first!.name.folderName
        folder = root.appendingPathComponent(name)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A touch mid-trial, a timed block, two setting changes and a switch to Verify.
    public static let defaultSteps: [(trial: Int, after: Double, step: AppStep)] = [
        (4, 0.5071, .touch(1)), (6, 0.4013, .block(0.6)), (7, 0.2037, .setting(.feedbackDuration, .double(0.3))),
        (8, 0.3049, .setting(.certaintyRequiredForPress, .double(0.95))), (9, 2.5049, .mode(.verify)),
    ]

    private func run(seconds: Double, steps: [(trial: Int, after: Double, step: AppStep)]) {
        let period = 1.0 / 60, start = clock.now
        var starts: [Int: Double] = [:]
        controller.events.subscribe { event in
            if case .trialStarted(let s) = event.kind { starts[s.trial] = event.time }
        }
        var pending = steps
        var generator = SeededGenerator(seed: 7)
        for index in 1...Int(seconds * 60) {
            let deadline = start + Double(index) * period
            let jitter = Double(generator.next() >> 54) * 1e-6         // 0…1 ms late, whole µs
            let time = ((deadline + jitter) * 1e6).rounded() / 1e6
            while let k = pending.firstIndex(where: { step in starts[step.trial].map { $0 + step.after <= time } ?? false }) {
                let step = pending.remove(at: k)
                clock.advance(to: max(clock.now, ((starts[step.trial]! + step.after) * 1e6).rounded() / 1e6))
                inCall = true
                switch step.step {
                case .touch(let k): controller.touchPress(buttons[k])
                case .block(let seconds): controller.blockTrials(forDuration: seconds)
                case .setting(let title, let value): try? settings.set(value: value, for: title)
                case .mode(let mode): controller.set(mode: mode)
                case .trialsOff: controller.trialsAreRunning = false
                case .decoderRestart: link.pendingConnections += 1
                }
                inCall = false
            }
            clock.advance(to: time)
            controller.tick(frame: FrameTiming(index: index, deadline: deadline, time: time, period: period))
        }
    }

    final class Menu: NoiseTagDelegate {
        func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
            for control in view.allControls { try? control.noiseTagging.addAction(timing: 0.5) {} }
        }
    }
}

/// The scripted decoder: answers with heartbeats, and predicts during flicker.
private final class ScriptedPredictor {
    let link: InMemoryDecoderLink
    var frames = 0
    var trials = 0
    var intended: UInt8 = 0
    var decoy: UInt8 = 0
    var objIDs: [UInt8] = []
    var messagesSeen = 0

    init(link: InMemoryDecoderLink) { self.link = link }

    func trialStarted(_ start: NoiseTagEvent.TrialStart) {
        trials += 1
        frames = 0
        let ids = start.objectIDs
        intended = UInt8(start.targetObjectID ?? ids[(trials * 5) % ids.count])
        decoy = UInt8(ids.first { $0 != Int(intended) } ?? 0)
    }

    func heard(_ message: UtopiaMessage) {
        messagesSeen += 1
        switch message {
        case .heartbeat, .subscribe:
            link.deliver(.heartbeat(Heartbeat(timestamp: message.timestamp)))
        case .stimulusEvent(let event):
            frames += 1
            guard frames % 6 == 0 else { return }
            // A wrong guess first, then the intended object, ever more certain.
            let wrong = frames <= 30
            let perr = wrong ? 0.2 : 0.5 * exp(-0.08 * Double(frames - 30))
            link.deliver(.predictedTargetProb(PredictedTargetProb(timestamp: event.timestamp, objID: Int8(wrong ? decoy : intended),
                                                                  errorProbability: Float(perr))))
        default:
            break
        }
    }
}
