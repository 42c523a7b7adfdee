import ArgumentParser
import Foundation
import Study

/// `noisetag session check PROTOCOL`: reads and checks a protocol as
/// `session run` does, and says what it would run, without starting
/// anything.
struct SessionCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a study protocol and list its steps, without starting a session.",
        discussion: """
        Reads PROTOCOL with the rules of `session run` (Protocols/session.md) and prints one line \
        per step with what it asks for. Exits 0 for a protocol `session run` would start, 1 with \
        the same one-line error otherwise. Nothing is recorded.
        """)

    @Argument(help: ArgumentHelp("The protocol (JSON; Protocols/session.md).", valueName: "PROTOCOL"))
    var protocolFile: String

    func run() throws {
        let plan: SessionProtocol
        do { plan = try SessionProtocol.load(from: URL(fileURLWithPath: protocolFile)) } catch { throw CommandFailure("\(error)") }
        print("\(protocolFile): a protocol \"\(plan.name)\" of \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s")"
              + (plan.settings.isEmpty ? "" : ", setting \(plan.settings.keys.sorted().joined(separator: ", "))"))
        for (index, step) in plan.steps.enumerated() {
            let name = step.name == step.kind.name ? "" : " \"\(step.name)\""
            let settings = step.settings.isEmpty ? "" : "; sets \(step.settings.keys.sorted().joined(separator: ", "))"
            print("  \(index + 1) \(step.kind.name)\(name): \(Self.describe(step.kind))\(settings)")
        }
    }

    /// What a step asks for, in a few words.
    static func describe(_ kind: SessionStep.Kind) -> String {
        func s(_ seconds: Double) -> String { String(format: "%g s", seconds) }
        switch kind {
        case .instructions(_, let on, let seconds):
            return on == .key ? "text until a key" + (seconds.map { " (at most \(s($0)))" } ?? "") : "text for \(seconds.map(s) ?? "?")"
        case .signalCheck(let seconds, let criteria, let onFailure, let attempts):
            return "\(s(seconds)) of signal, noise at most \(criteria.maxNoise); on failure \(onFailure.rawValue) (\(attempts) attempt\(attempts == 1 ? "" : "s"))"
        case .calibration(let trials, let trialSeconds, let layout):
            return "\(trials) cued trials" + (trialSeconds.map { " of \(s($0))" } ?? "") + " on the \(layout), then the decoder's fit"
        case .copySpell(let text, let limit):
            return "copy \"\(text)\" within \(s(limit))"
        case .freeSpell(let seconds, let word, let text):
            return "type freely" + (seconds.map { " for \(s($0))" } ?? "") + (word.map { " until \"\($0)\"" } ?? "")
                + " (the simulated participant types \"\(text)\")"
        case .noControl(let seconds):
            return "look away for \(s(seconds)): every press is false"
        case .zeroTrain(let text, let limit):
            return "type \"\(text)\" without calibration within \(s(limit))"
        case .rest(let seconds, let skippable):
            return "a break of \(s(seconds))" + (skippable ? " (a key ends it)" : "")
        case .questionnaire(let items):
            return "\(items.count) question\(items.count == 1 ? "" : "s")"
        }
    }
}
