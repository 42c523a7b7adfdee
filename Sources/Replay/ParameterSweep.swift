import NoiseTagging

/// A what-if over a range of one numeric setting: the recording is replayed
/// under each value and the totals give the accuracy/speed trade-off
/// (`noisetag replay … --sweep certaintyRequiredForPress=0.7:0.99:0.01`).
public struct ParameterSweep: Sendable {
    /// The swept setting.
    public let title: NoiseTagSettingTitles
    /// The values, in order.
    public let values: [Double]

    /// One value's outcome.
    public struct Point: Sendable {
        public var value: Double
        public var totals: OutcomeTotals
        /// Trials whose outcome differs from the logged one.
        public var changed: Int
    }

    /// Parses `TITLE=FROM:TO:STEP` (both ends included). Throws a sentence
    /// naming what is wrong: an unknown or non-numeric setting, numbers that
    /// do not parse, a step that is not positive, more than 1000 values, or a
    /// value the setting does not allow.
    public init(parsing text: String) throws(ReplayOptionError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ReplayOptionError("--sweep '\(text)': expected TITLE=FROM:TO:STEP") }
        guard let title = NoiseTagSettingTitles(name: parts[0]) else {
            throw ReplayOptionError("--sweep '\(text)': no setting is called '\(parts[0])'")
        }
        switch title.definition.kind {
        case .int, .double: break
        default: throw ReplayOptionError("--sweep '\(text)': \(title.rawValue) is not a number setting")
        }
        if let why = SettingOverrides.controlledByReplay[title] { throw ReplayOptionError("--sweep '\(text)': \(why): \(title.rawValue) cannot be a what-if") }
        let numbers = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
        guard numbers.count == 3, let from = numbers[0], let to = numbers[1], let step = numbers[2],
              from.isFinite, to.isFinite, step.isFinite else {
            throw ReplayOptionError("--sweep '\(text)': FROM:TO:STEP must be three numbers")
        }
        guard step > 0, to >= from else { throw ReplayOptionError("--sweep '\(text)': needs FROM ≤ TO and STEP > 0") }
        if case .int = title.definition.kind, [from, step].contains(where: { $0 != $0.rounded() }) {
            throw ReplayOptionError("--sweep '\(text)': \(title.rawValue) takes whole numbers: FROM and STEP must be whole")
        }
        let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
        guard count <= 1000 else { throw ReplayOptionError("--sweep '\(text)': \(count) values; at most 1000") }
        let values = (0..<count).map { ((from + Double($0) * step) * 1e9).rounded() / 1e9 }
        let scratch = NoiseTagSettings()
        for value in [values.first!, values.last!] {
            do { try scratch.set(value: Self.settingValue(value, for: title), for: title) } catch {
                throw ReplayOptionError("--sweep '\(text)': \(error)")
            }
        }
        self.title = title
        self.values = values
    }

    static func settingValue(_ value: Double, for title: NoiseTagSettingTitles) -> NoiseTagSettingValue {
        if case .int = title.definition.kind { return .int(Int(value.rounded())) }
        return .double(value)
    }

    /// Replays `script` under each value (on top of `overrides`), with
    /// `incoming` in place of the logged decoder messages when given (a re-decode).
    public func run(_ script: RecordingScript, overrides: [NoiseTagSettingTitles: NoiseTagSettingValue] = [:],
                    untilTrial: Int? = nil, incoming: [RecordingScript.Message]? = nil) -> [Point] {
        values.map { value in
            var replay = RecordingReplay(script: script)
            replay.overrides = overrides
            replay.overrides[title] = Self.settingValue(value, for: title)
            replay.untilTrial = untilTrial
            replay.incoming = incoming
            let report = replay.run()
            return Point(value: value, totals: report.replayedTotals, changed: report.trials.filter { $0.divergence != nil }.count)
        }
    }
}
