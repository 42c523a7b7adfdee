extension NoiseTagSettingValue {
    /// The value a user means by typing `text` for a setting of `kind`: a
    /// number for a number setting, an integer for an integer setting,
    /// `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`) for a bool, a
    /// choice spelt in any case as the choice itself, other text as typed.
    ///
    /// Only the type is chosen here; whether the value is allowed (its
    /// range, the list of choices, the colour format) is for
    /// ``NoiseTagSettings/set(value:for:)`` to say. Text that is not of
    /// the kind's type stays a text, so that `set` refuses it with an error
    /// naming the setting and the type it expects.
    public init(typed text: String, for kind: NoiseTagSettingKind) {
        let trimmed = text.trimmingSpaces
        switch kind {
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "on", "1": self = .bool(true)
            case "false", "no", "off", "0": self = .bool(false)
            default: self = .text(text)
            }
        case .int:
            if let integer = Int(trimmed) {
                self = .int(integer)
            } else if let number = Double(trimmed) {
                self = .double(number)
            } else {
                self = .text(text)
            }
        case .double:
            self = Double(trimmed).map { .double($0) } ?? .text(text)
        case .choice(let options):
            self = .text(options.first { $0.lowercased() == trimmed.lowercased() } ?? trimmed)
        case .color:
            self = .text(trimmed)
        case .text:
            self = .text(text)
        }
    }
}

extension String {
    /// The text without leading and trailing spaces (and tabs).
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}
