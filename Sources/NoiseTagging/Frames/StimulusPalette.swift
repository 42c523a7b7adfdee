/// The colours of one frame, taken from the settings once per trial so the
/// per-frame work only picks between them.
///
/// Contrast: `Max` uses `colorBitOnIfMaxContrast` / `colorBitOffIfMaxContrast`
/// as they are; `High`, `Medium`, `Low` and `Min` pull both towards their
/// middle grey to 80 %, 60 %, 40 % and 20 % of the full difference.
public struct StimulusPalette: Equatable, Sendable {
    /// Colour of a 1 bit.
    public let bitOn: NoiseTagColor
    /// Colour of a 0 bit.
    public let bitOff: NoiseTagColor
    /// Look of an enabled control that is not flickering.
    public let enabled: NoiseTagColor
    /// Look of a disabled control.
    public let disabled: NoiseTagColor
    /// The cue highlight of the target.
    public let cue: NoiseTagColor

    /// Fraction of the full on/off difference for each `contrastMode` choice.
    public static let contrastLevels: [String: Double] = ["Min": 0.2, "Low": 0.4, "Medium": 0.6, "High": 0.8, "Max": 1.0]

    /// Reads the colours and contrast from `settings`.
    public init(settings: NoiseTagSettings) {
        let on = settings.colorFor(.colorBitOnIfMaxContrast)
        let off = settings.colorFor(.colorBitOffIfMaxContrast)
        let level = Self.contrastLevels[settings.textFor(.contrastMode)] ?? 1
        let middle = off.mixed(with: on, fraction: 0.5)
        bitOn = middle.mixed(with: on, fraction: level)
        bitOff = middle.mixed(with: off, fraction: level)
        enabled = settings.colorFor(.defaultColorButtonEnabled)
        disabled = settings.colorFor(.defaultColorButtonDisabled)
        cue = settings.colorFor(.colorTargetCue)
    }

    /// The flicker colour for a code state (non-zero is on).
    @inline(__always)
    public func color(forState state: UInt8) -> NoiseTagColor { state != 0 ? bitOn : bitOff }
}
