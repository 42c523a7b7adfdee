/// The footer line: the keys and what they do.
public struct TerminalFooter: Equatable {
    /// One key and its meaning.
    public struct Key: Equatable, Sendable {
        /// The key as the user types it ("q", "space").
        public var key: String
        /// What it does ("quit").
        public var meaning: String
    }

    /// The keys, in order.
    public var keys: [Key]

    /// Creates a footer from (key, meaning) pairs.
    public init(keys: [(String, String)]) {
        self.keys = keys.map { Key(key: $0.0, meaning: $0.1) }
    }

    static let background = TerminalRGB(red: 28, green: 35, blue: 51)
    static let keyColor = TerminalRGB(red: 255, green: 210, blue: 90)
    static let textColor = TerminalRGB(red: 200, green: 205, blue: 215)

    /// Paints the footer across `row`: each key highlighted, then its meaning.
    public func draw(on screen: TerminalScreen, row: Int) {
        let bg = Self.background
        screen.fill(CellRect(row: row, column: 0, width: screen.size.columns, height: 1), with: bg, foreground: Self.textColor)
        var x = 1
        for entry in keys {
            x += screen.write(entry.key, row: row, column: x, foreground: Self.keyColor, background: bg)
            x += screen.write(" " + entry.meaning + "   ", row: row, column: x, foreground: Self.textColor, background: bg)
        }
    }
}
