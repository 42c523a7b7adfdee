/// An RGB colour with components in 0…1, independent of any UI toolkit.
public struct NoiseTagColor: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double

    /// Creates a colour from components in 0…1 (values outside are clamped).
    public init(red: Double, green: Double, blue: Double) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
    }

    /// Parses `#RRGGBB` (the `#` is optional); nil when malformed.
    public init?(hex: String) {
        var text = Substring(hex)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.init(red: Double((value >> 16) & 0xFF) / 255,
                  green: Double((value >> 8) & 0xFF) / 255,
                  blue: Double(value & 0xFF) / 255)
    }

    /// `#RRGGBB` in upper case.
    public var hex: String {
        func byte(_ v: Double) -> String {
            let s = String(Int((v * 255).rounded()), radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    /// The colour's `#RRGGBB` text.
    public var description: String { hex }

    /// Linear mix: `fraction` 0 gives `self`, 1 gives `other`.
    public func mixed(with other: NoiseTagColor, fraction: Double) -> NoiseTagColor {
        let f = min(max(fraction, 0), 1)
        return NoiseTagColor(red: red + (other.red - red) * f,
                             green: green + (other.green - green) * f,
                             blue: blue + (other.blue - blue) * f)
    }

    /// Black, `#000000`.
    public static let black = NoiseTagColor(red: 0, green: 0, blue: 0)
    /// White, `#FFFFFF`.
    public static let white = NoiseTagColor(red: 1, green: 1, blue: 1)
    /// Red, `#FF0000`: the red-border press feedback.
    public static let red = NoiseTagColor(red: 1, green: 0, blue: 0)
    /// Mid gray, `#808080`: the non-selected feedback.
    public static let gray = NoiseTagColor(red: 128.0 / 255, green: 128.0 / 255, blue: 128.0 / 255)
}
