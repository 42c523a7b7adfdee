#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NoiseTagging

/// A 24-bit colour as a terminal shows it: one byte per channel.
public struct TerminalRGB: Equatable, Hashable, Sendable {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8

    /// Creates a colour from its channels.
    @inline(__always)
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The nearest 24-bit colour to an engine colour (channels rounded;
    /// values outside 0…1 clamped, NaN as 0).
    @inline(__always)
    public init(_ color: NoiseTagColor) {
        red = Self.channel(color.red)
        green = Self.channel(color.green)
        blue = Self.channel(color.blue)
    }

    @inline(__always)
    private static func channel(_ value: Double) -> UInt8 {
        guard value > 0 else { return 0 }   // also NaN
        guard value < 1 else { return 255 }
        return UInt8((value * 255).rounded())
    }

    /// WCAG relative luminance, 0 (black) … 1 (white).
    public var relativeLuminance: Double {
        let linear = Self.linearChannels
        return 0.2126 * linear[Int(red)] + 0.7152 * linear[Int(green)] + 0.0722 * linear[Int(blue)]
    }

    /// The linear light of each channel value 0…255 (the sRGB curve), worked
    /// out once: text colours are chosen for every button every frame.
    private static let linearChannels: [Double] = (0...255).map { channel in
        let c = Double(channel) / 255
        return c <= 0.039_28 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// WCAG contrast ratio between two colours, 1 … 21.
    public func contrastRatio(with other: TerminalRGB) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Black or white, whichever contrasts more with this colour: the text
    /// colour for a label on a block of this colour.
    public var contrastingText: TerminalRGB {
        contrastRatio(with: .black) >= contrastRatio(with: .white) ? .black : .white
    }

    /// `#000000`.
    public static let black = TerminalRGB(red: 0, green: 0, blue: 0)
    /// `#FFFFFF`.
    public static let white = TerminalRGB(red: 255, green: 255, blue: 255)
}
