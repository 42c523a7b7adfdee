// A yes/no question answered by brain, on an external decoder: any decoder
// that speaks the bridge's protocol (`noisetag decoder serve` reading an
// amplifier, MindAffect's decoder through its hub at utopia://HOST:PORT).
//
//     swift run YesNoQuestion [ENDPOINT]      (default: the default ipc:// socket)
//
// The user calibrates on ten cued trials, then looks at the answer; the
// first confident press answers, and the program prints it and ends.
import DecoderBridge
import Foundation
import NoiseTagging

/// Asks one question; `answer` is set by the press that answers it.
final class Question: NoiseTagDelegate {
    let yes = NoiseTagButton(identifier: "yes", label: "Yes", frame: NoiseTagRect(x: 0, y: 0, width: 10, height: 4))
    let no = NoiseTagButton(identifier: "no", label: "No", frame: NoiseTagRect(x: 20, y: 0, width: 10, height: 4))
    var answer: String?

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        try? yes.noiseTagging.addAction(timing: 1) { [unowned self] in answer = "yes" }
        try? no.noiseTagging.addAction(timing: 1) { [unowned self] in answer = "no" }
    }

    func respondToNoClick() {}
    func contextDescription() -> String? { "Shall we go on?" }
}

let endpoint = CommandLine.arguments.dropFirst().first ?? ""
let link: any BridgeLink
do {
    link = try BridgeLinks.connect(endpoint: endpoint, settings: NoiseTagging.settings)
} catch {
    FileHandle.standardError.write(Data("YesNoQuestion: \(error)\n".utf8))
    exit(2)
}
NoiseTagging.decoderLink = link

let question = Question()
let view = NoiseTagView()
view.add(question.yes)
view.add(question.no)
NoiseTagging.push(view: view, forNoiseTaggingWithDelegate: question)
NoiseTagging.set(mode: .trainGeneric, waitTillDecoderConfirms: true, withExplanation: "calibrate first")
NoiseTagging.trialsAreRunning = true
print("\(question.contextDescription() ?? "") (decoder at \(endpoint.isEmpty ? "the default socket" : endpoint))")

let loop = FrameLoop(controller: NoiseTagging, waiter: RealTimeFrameWaiter())
let deadline = Date().addingTimeInterval(180)
while question.answer == nil && Date() < deadline {
    _ = loop.step()
}
NoiseTagging.trialsAreRunning = false
NoiseTagging.stopRecording()
link.close()
print("answer: \(question.answer ?? "none (no press in 180 s)")")
exit(question.answer == nil ? 1 : 0)
