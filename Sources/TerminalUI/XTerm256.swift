/// The xterm 256-colour palette's fixed part: the 6×6×6 colour cube
/// (indices 16…231, channel levels 0, 95, 135, 175, 215, 255) and the
/// 24-step grey ramp (232…255, 8 + 10·k). The 16 system colours (0…15) are
/// left out because users redefine them.
///
/// The nearest index is the cube or grey entry at the smallest squared RGB
/// distance, as tmux's `colour_find_rgb` chooses it.
///
/// ```swift
/// XTerm256.index(nearest: TerminalRGB(red: 255, green: 0, blue: 0))       // 196
/// XTerm256.index(nearest: TerminalRGB(red: 128, green: 128, blue: 128))   // 244
/// XTerm256.color(at: 196)                                                  // 255, 0, 0
/// ```
public enum XTerm256 {
    /// The cube's channel levels.
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The palette index (16…255) nearest to `color`.
    public static func index(nearest color: TerminalRGB) -> UInt8 {
        let r = cubeStep(color.red), g = cubeStep(color.green), b = cubeStep(color.blue)
        let cube = TerminalRGB(red: cubeLevels[r], green: cubeLevels[g], blue: cubeLevels[b])
        let cubeIndex = UInt8(16 + 36 * r + 6 * g + b)
        if cube == color { return cubeIndex }
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyLevel = UInt8(8 + 10 * greyStep)
        let grey = TerminalRGB(red: greyLevel, green: greyLevel, blue: greyLevel)
        return distance(cube, color) < distance(grey, color) ? cubeIndex : UInt8(232 + greyStep)
    }

    /// The RGB value of palette entry `index`; the system colours 0…15 give
    /// xterm's defaults.
    public static func color(at index: UInt8) -> TerminalRGB {
        switch index {
        case 0..<16:
            let system: [(UInt8, UInt8, UInt8)] = [
                (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
                (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                (255, 0, 255), (0, 255, 255), (255, 255, 255)]
            let entry = system[Int(index)]
            return TerminalRGB(red: entry.0, green: entry.1, blue: entry.2)
        case 16..<232:
            let n = Int(index) - 16
            return TerminalRGB(red: cubeLevels[n / 36], green: cubeLevels[(n / 6) % 6], blue: cubeLevels[n % 6])
        default:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return TerminalRGB(red: level, green: level, blue: level)
        }
    }

    /// The cube step (0…5) nearest to a channel value.
    private static func cubeStep(_ value: UInt8) -> Int {
        value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40
    }

    private static func distance(_ a: TerminalRGB, _ b: TerminalRGB) -> Int {
        let dr = Int(a.red) - Int(b.red), dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        return dr * dr + dg * dg + db * db
    }
}
