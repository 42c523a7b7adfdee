// Four brain buttons on the reference decoder, which runs inside this
// process with its simulated amplifier and simulated user. The user
// calibrates on ten cued trials, then spells YES: Y, E and S in turn, and
// the delete key after a wrong press. The app types whatever the decoder's
// confident predictions press. About a minute.
import DecoderBridge
import DecoderService
import Foundation
import IOThreads
import NoiseTagging
import Simulation
import ZeroMQTransport

// No options: any argument (--help too) gets the usage line.
guard CommandLine.arguments.count == 1 else {
    print("usage: BrainButtons  (no options; calibrates, then types YES by brain, about a minute)")
    exit(["--help", "-h"].contains(CommandLine.arguments[1]) ? 0 : 64)
}

/// The unit's delegate: one action per button, assigned in every update.
final class KeyboardUnit: NoiseTagDelegate {
    let buttons: [NoiseTagButton]
    var typed = ""

    init(buttons: [NoiseTagButton]) { self.buttons = buttons }

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for button in buttons {
            let key = button.label
            // At the press, not after its feedback: the loop then moves the gaze before the next trial starts.
            try? button.noiseTagging.addAction(timing: 0) { [unowned self] in
                if key == "⌫" { typed = String(typed.dropLast()) } else { typed += key }
            }
        }
    }

    func respondToNoClick() { print("  (no press this time)") }
    func contextDescription() -> String? { "keyboard" }
}

// The decoder: EEG from a simulated amplifier whose user looks where `gaze` says.
let gaze = GazeFocus()
var decoderSettings = DecoderServerSettings()
decoderSettings.simulation = DecoderSimulation(snr: 0.05, seed: 1, gaze: .follow(gaze))
let context = ZeroMQContext()
let decoder = try DecoderServer(endpoint: "inproc://brain-buttons", settings: decoderSettings, context: context)

// The engine: the app's singleton, linked to that decoder.
let link = try BridgeLinks.connect(endpoint: decoder.endpoint, settings: nil, context: context)
NoiseTagging.decoderLink = link
try NoiseTagging.settings.set(value: .int(10), for: .nGenericTrainTrials)
try NoiseTagging.settings.set(value: .double(2), for: .trialDurationGenericTrain)

let view = NoiseTagView()
let buttons = ["Y", "E", "S", "⌫"].enumerated().map { index, letter in
    NoiseTagButton(identifier: letter, label: letter, frame: NoiseTagRect(x: Double(index) * 10, y: 0, width: 8, height: 3),
                   customUtopiaObjectID: index + 1)
}
buttons.forEach(view.add)
let unit = KeyboardUnit(buttons: buttons)

let start = NoiseTagging.clock.now
NoiseTagging.events.subscribe { event in
    let t = String(format: "%6.2f s", event.time - start)
    switch event.kind {
    case .trialStarted(let trial):
        print("\(t)  trial \(trial.trial) (\(trial.mode.rawValue))" + (trial.target.map { ", target \($0)" } ?? ""))
    case .press(let press):
        let certainty = press.certainty.map { String(format: ", certainty %.2f", $0) } ?? ""
        print("\(t)  pressed \(press.control) by \(press.source.rawValue)\(certainty)")
    case .modeChanged(_, let to, let why):
        print("\(t)  mode \(to.rawValue)" + (why.map { " (\($0))" } ?? ""))
    default:
        break
    }
}

NoiseTagging.push(view: view, forNoiseTaggingWithDelegate: unit)
NoiseTagging.set(mode: .trainGeneric, waitTillDecoderConfirms: true, withExplanation: "calibrate first")
NoiseTagging.trialsAreRunning = true

// Ctrl-C (or SIGTERM, SIGHUP) ends the loop below, which then closes the recording properly ("App ended").
let signals = try? SignalPipe()
var interrupted = false

// The frame loop: one tick per display frame; in Test mode the user looks at the key wanted next.
let word = "YES"
let loop = FrameLoop(controller: NoiseTagging, waiter: RealTimeFrameWaiter())
while unit.typed != word && NoiseTagging.clock.now - start < 150 && !interrupted {
    let key = word.hasPrefix(unit.typed) ? String(word.dropFirst(unit.typed.count).prefix(1)) : "⌫"
    let next = buttons.first { $0.label == key }?.noiseTagging.customUtopiaObjectID
    gaze.objectID = NoiseTagging.mode == .test ? next.flatMap { UInt8(exactly: $0) } : nil
    _ = loop.step()
    interrupted = signals?.drain().contains { $0.endsSession } == true
}
NoiseTagging.trialsAreRunning = false
NoiseTagging.stopRecording()
link.close()
decoder.stop()
context.terminate()
print("typed: \(unit.typed) in \(String(format: "%.1f", NoiseTagging.clock.now - start)) s, \(NoiseTagging.trialsStarted) trials")
exit(unit.typed == word ? 0 : 1)
