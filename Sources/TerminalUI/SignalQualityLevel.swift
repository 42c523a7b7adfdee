/// How good a channel's noise-to-signal ratio is, as the signal view
/// colours it: good (≤ 0.5, green), fair (≤ 1, yellow), bad (above 1, red),
/// or unknown (no figure, or NaN; grey).
///
/// ```swift
/// let level = SignalQualityLevel(noiseToSignal: 0.7)   // .fair
/// screen.put("█", row: 2, column: 5, foreground: level.color, background: .black)
/// ```
public enum SignalQualityLevel: Equatable, Sendable, CaseIterable {
    /// Noise-to-signal at most ``goodLimit``.
    ///
    /// ```swift
    /// SignalQualityLevel(noiseToSignal: 0.5) == .good   // true
    /// ```
    case good
    /// Above ``goodLimit``, at most ``fairLimit``.
    ///
    /// ```swift
    /// SignalQualityLevel(noiseToSignal: 1) == .fair   // true
    /// ```
    case fair
    /// Above ``fairLimit`` (an infinite ratio too).
    ///
    /// ```swift
    /// SignalQualityLevel(noiseToSignal: .infinity) == .bad   // true
    /// ```
    case bad
    /// No figure reported, or not a number.
    ///
    /// ```swift
    /// SignalQualityLevel(noiseToSignal: .nan) == .unknown   // true
    /// ```
    case unknown

    /// The highest noise-to-signal ratio that is still good.
    ///
    /// ```swift
    /// let goodCount = figures.filter { $0 <= SignalQualityLevel.goodLimit }.count
    /// ```
    public static let goodLimit = 0.5
    /// The highest noise-to-signal ratio that is still fair.
    ///
    /// ```swift
    /// let usable = figures.allSatisfy { $0 <= SignalQualityLevel.fairLimit }
    /// ```
    public static let fairLimit = 1.0

    /// The level of a noise-to-signal ratio; nil and NaN are unknown.
    ///
    /// ```swift
    /// SignalQualityLevel(noiseToSignal: 0.3)   // .good
    /// SignalQualityLevel(noiseToSignal: nil)   // .unknown
    /// ```
    public init(noiseToSignal ratio: Double?) {
        guard let ratio, !ratio.isNaN else {
            self = .unknown
            return
        }
        self = ratio <= Self.goodLimit ? .good : ratio <= Self.fairLimit ? .fair : .bad
    }

    /// The level's colour: green, yellow, red or grey.
    ///
    /// ```swift
    /// SignalQualityLevel.bad.color   // TerminalRGB(red: 235, green: 80, blue: 70)
    /// ```
    public var color: TerminalRGB {
        switch self {
        case .good: return TerminalRGB(red: 80, green: 200, blue: 100)
        case .fair: return TerminalRGB(red: 235, green: 200, blue: 60)
        case .bad: return TerminalRGB(red: 235, green: 80, blue: 70)
        case .unknown: return TerminalRGB(red: 120, green: 130, blue: 150)
        }
    }
}
