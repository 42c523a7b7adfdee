/// How good a channel's noise-to-signal ratio is, as the signal view
/// colours it: good (≤ 0.5, green), fair (≤ 1, yellow), bad (above 1, red),
/// or unknown (no figure, or NaN; grey).
public enum SignalQualityLevel: Equatable, Sendable, CaseIterable {
    /// Noise-to-signal at most ``goodLimit``.
    case good
    /// Above ``goodLimit``, at most ``fairLimit``.
    case fair
    /// Above ``fairLimit`` (an infinite ratio too).
    case bad
    /// No figure reported, or not a number.
    case unknown

    /// The highest noise-to-signal ratio that is still good.
    public static let goodLimit = 0.5
    /// The highest noise-to-signal ratio that is still fair.
    public static let fairLimit = 1.0

    /// The level of a noise-to-signal ratio; nil and NaN are unknown.
    public init(noiseToSignal ratio: Double?) {
        guard let ratio, !ratio.isNaN else {
            self = .unknown
            return
        }
        self = ratio <= Self.goodLimit ? .good : ratio <= Self.fairLimit ? .fair : .bad
    }

    /// The level's colour: green, yellow, red or grey.
    public var color: TerminalRGB {
        switch self {
        case .good: return TerminalRGB(red: 80, green: 200, blue: 100)
        case .fair: return TerminalRGB(red: 235, green: 200, blue: 60)
        case .bad: return TerminalRGB(red: 235, green: 80, blue: 70)
        case .unknown: return TerminalRGB(red: 120, green: 130, blue: 150)
        }
    }
}
