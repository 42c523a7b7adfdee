// A yes/no question answered by brain, on an external decoder: any decoder
// that speaks the bridge's protocol (`noisetag decoder serve` reading an
// amplifier, MindAffect's decoder through its hub at utopia://HOST:PORT).
//
//     swift run YesNoQuestion [ENDPOINT]      (default: the default ipc:// socket; --help: usage)
//
// The user calibrates on ten cued trials, then looks at the answer; the
// first confident press answers, and the program prints it and ends.
import DecoderBridge
import Foundation
import IOThreads
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

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count > 1 || arguments.first.map({ $0.hasPrefix("-") }) == true {
    let usage = "usage: YesNoQuestion [ENDPOINT]  (ipc://PATH, tcp://HOST:PORT or utopia://HOST:PORT; default: the default ipc:// socket)"
    let asked = arguments == ["--help"] || arguments == ["-h"]
    let text = (asked ? "" : "YesNoQuestion: unexpected \(arguments.joined(separator: " "))\n") + usage + "\n"
    FileHandle(fileDescriptor: asked ? 1 : 2).write(Data(text.utf8))
    exit(asked ? 0 : 64)
}
let endpoint = arguments.first ?? ""
let link: any BridgeLink
do {
    // Default settings, not the singleton's: touching NoiseTagging starts its recording, which a failed start would leave open.
    link = try BridgeLinks.connect(endpoint: endpoint, settings: NoiseTagSettings())
} catch {
    FileHandle.standardError.write(Data("YesNoQuestion: \(error)\n".utf8))
    exit(2)
}
NoiseTagging.decoderLink = link
// What the engine has to say goes to the user: a decoder not found yet, lost, back.
NoiseTagging.events.subscribe { event in
    switch event.kind {
    case .notice(let text): print("note: \(text)")
    case .decoderConnection(let state, _) where state != .connecting: print("decoder \(state.rawValue)")
    default: break
    }
}

let question = Question()
let view = NoiseTagView()
view.add(question.yes)
view.add(question.no)
NoiseTagging.push(view: view, forNoiseTaggingWithDelegate: question)
NoiseTagging.set(mode: .trainGeneric, waitTillDecoderConfirms: true, withExplanation: "calibrate first")
NoiseTagging.trialsAreRunning = true
print("\(question.contextDescription() ?? "") (decoder at \(endpoint.isEmpty ? "the default socket" : endpoint))")

// Ctrl-C (or SIGTERM, SIGHUP) ends the loop below, which then closes the recording properly ("App ended").
let signals = try? SignalPipe()
var interruptedBy: TerminalSignal?

let loop = FrameLoop(controller: NoiseTagging, waiter: RealTimeFrameWaiter())
let deadline = Date().addingTimeInterval(180)
while question.answer == nil && Date() < deadline && interruptedBy == nil {
    _ = loop.step()
    interruptedBy = signals?.drain().first { $0.endsSession }
}
NoiseTagging.trialsAreRunning = false
NoiseTagging.stopRecording()
link.close()
let outcome = interruptedBy.map { "none (stopped by \($0))" } ?? "none (no press in 180 s)"
print("answer: \(question.answer ?? outcome)")
exit(question.answer != nil ? 0 : interruptedBy?.exitCode ?? 1)
