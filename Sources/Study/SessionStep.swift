import NoiseTagging

/// One step of a ``SessionProtocol``: what the participant does, and the
/// engine settings that hold while it runs (restored after it).
public struct SessionStep: Sendable, Equatable {
    /// How an ``Kind/instructions`` step ends.
    public enum Continue: String, Sendable, Equatable {
        /// On any key (the simulated participant presses one after reading).
        case key
        /// After `seconds`.
        case seconds
    }

    /// What a ``Kind/signalCheck`` does when a channel fails.
    public enum OnFailure: String, Sendable, Equatable {
        /// Check again, up to `attempts` times, then stop the session.
        case `repeat`
        /// Stop the session at once (the step's outcome is `failed`).
        case stop
        /// Go on (the step's outcome is `failed`, the session continues).
        case `continue`
    }

    /// The signal check's pass criteria: each channel's median noise
    /// fraction (SIGNALQUALITY, 0 clean … 1 all noise) over the check must be
    /// at most its limit, and at least `minimumGoodChannels` must pass.
    public struct SignalCriteria: Sendable, Equatable {
        /// The limit for every channel without its own.
        public var maxNoise = 0.5
        /// Limits of single channels, by 1-based channel number.
        public var channelMaxNoise: [Int: Double] = [:]
        /// Channels that must pass; nil: all of them.
        public var minimumGoodChannels: Int?

        /// The limit for 1-based channel `channel`.
        public func limit(channel: Int) -> Double { channelMaxNoise[channel] ?? maxNoise }
    }

    /// True when `typed` ends in `word` as a word: the whole text, or
    /// after a space (typing THIS does not end a step waiting for HI).
    public static func endsWithWord(_ typed: String, _ word: String) -> Bool {
        guard typed.hasSuffix(word) else { return false }
        let before = typed.dropLast(word.count)
        return before.isEmpty || before.last == " "
    }

    /// The step kinds and their fields.
    public enum Kind: Sendable, Equatable {
        /// Text on screen; continue on a key or after seconds.
        case instructions(text: String, continueOn: Continue, seconds: Double?)
        /// The signal view for `seconds`, judged by `criteria`.
        case signalCheck(seconds: Double, criteria: SignalCriteria, onFailure: OnFailure, attempts: Int)
        /// `trials` cued trials of `trialSeconds` on `layout`, then the decoder's fit.
        case calibration(trials: Int, trialSeconds: Double?, layout: String)
        /// Type `text` (letters and spaces) within `timeLimit` seconds.
        case copySpell(text: String, timeLimit: Double)
        /// Type freely for `seconds`, or until `untilWord` is typed (whichever comes first);
        /// the simulated participant types `text`.
        case freeSpell(seconds: Double?, untilWord: String?, text: String)
        /// The participant looks away for `seconds`: every press is a false press.
        case noControl(seconds: Double)
        /// Type `text` from the first trial without calibration (ZeroTrain mode), within `timeLimit`.
        case zeroTrain(text: String, timeLimit: Double)
        /// A pause of `seconds` (a key ends it early when `skippable`).
        case rest(seconds: Double, skippable: Bool)
        /// Questions answered with the keys 1…N.
        case questionnaire(items: [QuestionnaireItem])

        /// The kind's name as protocols write it.
        public var name: String {
            switch self {
            case .instructions: return "instructions"
            case .signalCheck: return "signalCheck"
            case .calibration: return "calibration"
            case .copySpell: return "copySpell"
            case .freeSpell: return "freeSpell"
            case .noControl: return "noControl"
            case .zeroTrain: return "zeroTrain"
            case .rest: return "break"
            case .questionnaire: return "questionnaire"
            }
        }
    }

    /// The step's name in results and reports (default: its kind).
    public var name: String
    /// What it does.
    public var kind: Kind
    /// Engine settings for this step only, by title name (see NoiseTagSettingTitles).
    public var settings: [String: NoiseTagSettingValue]
}
