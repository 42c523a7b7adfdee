/// Where the built-in simulated user looks, trial by trial. Whenever a
/// target is cued, every script but ``none`` looks at it (object ID 0, whose
/// state copies the cued object's): in calibration, and in Verify trials,
/// whose STIMULUSEVENTs carry object 0 too. In other prediction trials
/// ``goals(_:)`` looks at the listed object IDs in successive trials, then at
/// nothing, and ``follow(_:)`` where its focus says.
public enum GazeScript: Equatable, Sendable {
    /// The cued target (calibration and Verify); nothing in uncued prediction trials.
    case target
    /// Nothing ever: an idle user.
    case none
    /// The cued target when one is cued; these object IDs in successive uncued prediction trials, then nothing.
    case goals([UInt8])
    /// The cued target when one is cued; in each uncued prediction trial, the
    /// object the ``GazeFocus`` names when the trial's first frame is shown
    /// (a user who reads the screen and decides, like the demo's simulated speller).
    case follow(GazeFocus)

    /// Scripts are equal when they look the same way; two `follow` scripts
    /// are equal when they follow the same focus.
    public static func == (a: GazeScript, b: GazeScript) -> Bool {
        switch (a, b) {
        case (.target, .target), (.none, .none): return true
        case (.goals(let x), .goals(let y)): return x == y
        case (.follow(let x), .follow(let y)): return x === y
        default: return false
        }
    }

    /// Reads the command line's form: `target`, `none` or `goal:3,1,4`.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "target": self = .target
        case "none", "idle": self = .none
        default:
            guard argument.lowercased().hasPrefix("goal:") else { return nil }
            let ids = argument.dropFirst(5).split(separator: ",").map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
            guard !ids.isEmpty, ids.allSatisfy({ $0 != nil && $0! > 0 }) else { return nil }
            self = .goals(ids.map { $0! })
        }
    }
}
