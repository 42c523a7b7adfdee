// A headless app with four brain buttons: it calibrates, then the simulated
// user spells Y-E-S; the example prints what the engine does.
import Foundation
import NoiseTagging
import UtopiaProtocol

/// The unit's delegate: one action per button, assigned in every update.
final class KeyboardUnit: NoiseTagDelegate {
    let buttons: [NoiseTagButton]
    var typed = ""

    init(buttons: [NoiseTagButton]) { self.buttons = buttons }

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for button in buttons {
            let letter = button.label
            try? button.noiseTagging.addAction(timing: 1) { [unowned self] in self.typed += letter }
        }
    }

    func respondToNoClick() { print("  (no press this time)") }
    func contextDescription() -> String? { "keyboard" }
}

let clock = VirtualClock()
let link = InMemoryDecoderLink()
let settings = NoiseTagSettings()
try settings.set(value: .int(4), for: .nGenericTrainTrials)
try settings.set(value: .double(2), for: .trialDurationGenericTrain)
let engine = NoiseTagController(clock: clock, settings: settings, decoderLink: link, seed: 1)
let decoder = SimulatedDecoder(link: link, clock: clock, seed: 7)

let view = NoiseTagView()
let buttons = ["Y", "E", "S", "N"].enumerated().map { index, letter in
    NoiseTagButton(identifier: letter, label: letter, frame: NoiseTagRect(x: Double(index) * 10, y: 0, width: 8, height: 3))
}
buttons.forEach(view.add)
let unit = KeyboardUnit(buttons: buttons)

engine.events.subscribe { event in
    let t = String(format: "%7.3f s", event.time)
    switch event.kind {
    case .trialStarted(let start):
        print("\(t)  trial \(start.trial) (\(start.mode.rawValue))" + (start.target.map { ", target \($0)" } ?? ""))
    case .press(let press):
        let certainty = press.certainty.map { String(format: ", certainty %.2f", $0) } ?? ""
        print("\(t)  pressed \(press.control) by \(press.source.rawValue)\(certainty)")
    case .modeChanged(_, let to, let why):
        print("\(t)  mode \(to.rawValue)" + (why.map { " (\($0))" } ?? ""))
    case .trialEnded(let end) where end.mode.isTraining:
        print("\(t)  calibration trial \(end.trial) done")
    default:
        break
    }
}

engine.push(view: view, forNoiseTaggingWithDelegate: unit)
engine.set(mode: .trainGeneric, waitTillDecoderConfirms: true, withExplanation: "calibrate first")
engine.trialsAreRunning = true

let word = ["Y", "E", "S"]
let frame = 1.0 / 60
var frameIndex = 0
while unit.typed.count < word.count && clock.now < 120 {
    if engine.mode == .test, let wanted = buttons.firstIndex(where: { $0.label == word[unit.typed.count] }) {
        decoder.attended = wanted + 1
    }
    if frameIndex % 6 == 0 { decoder.predict() }
    clock.advance(by: frame)
    engine.tick()
    frameIndex += 1
}
print("typed: \(unit.typed) in \(String(format: "%.1f", clock.now)) s of engine time, \(engine.trialsStarted) trials")
exit(unit.typed == "YES" ? 0 : 1)
