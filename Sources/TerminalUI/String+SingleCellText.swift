extension String {
    /// The text with every scalar that might not take exactly one terminal
    /// cell — controls and escapes, wide, combining or unusual characters —
    /// replaced by "?": labels from the network cannot move the cursor or
    /// shift the columns after them.
    var singleCellText: String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar in
            switch scalar.value {
            case 0x20...0x7E, 0xA0...0x24F, 0x370...0x3FF: return scalar
            default: return "?"
            }
        }))
    }
}
