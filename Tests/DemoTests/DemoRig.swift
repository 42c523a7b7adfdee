import DecoderService
import NoiseTagging
import TestSupport
@testable import Demo

/// The demo's scenario on the real engine and a virtual clock, with the
/// scripted decoder on the in-memory link; ``run(seconds:until:)`` steps
/// frames as the terminal and headless demos do.
final class DemoRig {
    let clock = VirtualClock()
    let decoder: ScriptedDecoder
    let controller: NoiseTagController
    let keyboard = SpellerKeyboard()
    let reports = DecoderReports()
    let scenario: DemoScenario
    let loop: FrameLoop
    var events: [NoiseTagEvent] = []

    init(goal: String, simulatedUser: Bool = true, calibrationTrials: Int = 5) throws {
        decoder = ScriptedDecoder(clock: clock)
        controller = NoiseTagController(clock: clock, decoderLink: decoder.link)
        try controller.settings.set(value: calibrationTrials, for: .nGenericTrainTrials)
        try controller.settings.set(value: 1.0, for: .trialDurationGenericTrain)
        let user = simulatedUser ? SpellingUser(goal: goal, focus: decoder.focus) : nil
        scenario = DemoScenario(controller: controller, keyboard: keyboard, reports: reports, user: user, goal: goal)
        scenario.signalCheckSeconds = 2
        scenario.resultsSeconds = 1
        loop = FrameLoop(controller: controller, waiter: VirtualFrameWaiter(clock: clock))
        let reports = reports
        controller.observeDecoderTraffic { reports.hear($0) }
        controller.events.subscribe { [unowned self] in self.events.append($0) }
    }

    /// Runs frames until `condition` or `seconds` of engine time pass; true when it held.
    @discardableResult
    func run(seconds: Double, until condition: () -> Bool = { false }) -> Bool {
        let end = clock.now + seconds
        while clock.now < end {
            loop.step()
            decoder.predict()
            scenario.step()
            if condition() { return true }
        }
        return condition()
    }
}
