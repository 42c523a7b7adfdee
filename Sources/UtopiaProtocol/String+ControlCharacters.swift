extension String {
    /// The text with its control characters written as escapes (`\n`, `\r`,
    /// `\t`, `\u{1B}` …), so that an error quoting bytes of a damaged file
    /// stays on one line and cannot move a terminal's cursor. Used by every
    /// error type whose description promises one line.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.properties.generalCategory == .control:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
