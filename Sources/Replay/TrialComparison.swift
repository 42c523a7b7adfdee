import Foundation
import UtopiaProtocol

/// One trial of a replay: the logged outcome next to the replayed one and
/// the first difference between them, if any.
///
/// ```swift
/// for trial in report.trials where trial.divergence != nil {
///     print(trial.trial, trial.divergence!.item, trial.divergence!.logged, "→", trial.divergence!.replayed)
/// }
/// ```
public struct TrialComparison: Sendable {
    /// The trial's number in the recording.
    public var trial: Int
    /// Its mode.
    public var mode: String
    /// The cued target, when the engine knew it (training and Verify).
    public var target: String?
    /// Number of flickering controls.
    public var controls: Int
    /// As logged.
    public var logged: TrialOutcome
    /// As replayed (nil when the trial could not be replayed: see ``problem``).
    public var replayed: TrialOutcome?
    /// The earliest difference (nil when identical).
    public var divergence: Divergence?
    /// Why the trial could not be replayed.
    public var problem: String?

    /// A difference between the logged and the replayed trial.
    public struct Divergence: Equatable, Sendable {
        /// What differs: `ending`, `pressed`, `end time`, `trial start`, or a message such as `STIMULUSEVENT #12`.
        public var item: String
        public var logged: String
        public var replayed: String
        /// Engine time of the difference.
        public var time: Double
    }

    /// True when the replay matched the recording in every compared item.
    public var isIdentical: Bool { problem == nil && divergence == nil }

    /// Frames the trial flickered: the STIMULUSEVENTs it sent, one a frame.
    static func framesFlickered(_ outcome: TrialOutcome) -> Int {
        outcome.messages.filter { $0.bytes.first == UtopiaMessageType.stimulusEvent.rawValue }.count
    }

    /// Compares the outcome items: ending, pressed control, end time
    /// (within `period`: a call between frames ends a trial at a time the
    /// replay's clock cannot reproduce; a trial that flickered more or
    /// fewer frames has changed however close the times, as under other
    /// settings a press one frame sooner does).
    static func outcomeDifferences(_ logged: TrialOutcome, _ replayed: TrialOutcome, period: Double) -> [Divergence] {
        let time = min(logged.endTime ?? .infinity, replayed.endTime ?? .infinity)
        var found: [Divergence] = []
        if logged.ending != replayed.ending {
            found.append(Divergence(item: "ending", logged: logged.ending, replayed: replayed.ending, time: time))
        }
        if logged.pressed != replayed.pressed {
            found.append(Divergence(item: "pressed", logged: logged.pressed ?? "none", replayed: replayed.pressed ?? "none", time: time))
        }
        if let a = logged.endTime, let b = replayed.endTime, abs(a - b) > period + 1e-9
            || (a != b && framesFlickered(logged) != framesFlickered(replayed)) {
            found.append(Divergence(item: "end time", logged: Self.seconds(a), replayed: Self.seconds(b), time: time))
        }
        return found
    }

    /// Compares the outcome and every message; the earliest difference wins.
    static func firstDifference(_ logged: TrialOutcome, _ replayed: TrialOutcome, period: Double) -> Divergence? {
        var found = outcomeDifferences(logged, replayed, period: period)
        var counts: [UInt8: Int] = [:]
        for k in 0..<max(logged.messages.count, replayed.messages.count) {
            let a = k < logged.messages.count ? logged.messages[k] : nil
            let b = k < replayed.messages.count ? replayed.messages[k] : nil
            let id = (a ?? b)!.bytes[0]
            counts[id, default: 0] += 1
            if let a, let b, a.matches(b) { continue }
            let name = UtopiaMessageType(rawValue: id)?.name ?? "message"
            found.append(Divergence(item: "\(name) #\(counts[id]!)", logged: a.map { describe($0.bytes) } ?? "nothing sent",
                                    replayed: b.map { describe($0.bytes) } ?? "nothing sent",
                                    time: min(a?.time ?? .infinity, b?.time ?? .infinity)))
            break
        }
        // Earliest first; at the same time the outcome items come first.
        return found.enumerated().min { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }?.element
    }

    /// A message in a line: its name and the fields that matter.
    static func describe(_ bytes: [UInt8]) -> String {
        guard let message = try? UtopiaCodec.decode(frame: bytes).first else {
            return Hex.string(bytes)
        }
        switch message {
        case .stimulusEvent(let e):
            return "STIMULUSEVENT t=\(e.timestamp) ids \(e.objIDs.map(String.init).joined(separator: ",")) states \(e.objStates.map(String.init).joined())"
        case .newTarget(let n): return "NEWTARGET t=\(n.timestamp)"
        case .selection(let s): return "SELECTION t=\(s.timestamp) id \(s.objID)"
        case .modeChange(let m): return "MODECHANGE t=\(m.timestamp) \(m.newMode)"
        default: return "\(message)"
        }
    }

    static func seconds(_ time: Double) -> String { String(format: "%.6f", time) }
}
