/// A BrainVision header (.vhdr) or marker file (.vmrk): INI-like sections
/// of `key=value` lines, `;` comments, CRLF or LF line ends, UTF-8 or
/// Latin-1 ("Codepage=ANSI"). The free text of the `[Comment]` section is
/// not parsed.
struct BrainVisionHeader {
    /// One channel of `[Channel Infos]`: `Ch<n>=Name,Reference,Resolution,Unit`,
    /// with `\1` standing for a comma in the name.
    struct Channel {
        var name: String
        var resolution: Double
        var unit: String
    }

    /// The first line ("Brain Vision Data Exchange Header File Version 1.0").
    var firstLine: String
    /// `sections[section][key]`, section and key as written (keys are case-sensitive in files; looked up leniently).
    var sections: [String: [String: String]] = [:]
    /// Every `key=value` line of each section in file order, keys lowercased:
    /// a key written twice (two markers numbered alike) is here twice.
    var entries: [String: [(key: String, value: String)]] = [:]
    /// `; Data created by …` comment's program, when there is one.
    var program: String?

    /// The header or marker file in `text`.
    init(_ text: String) {
        let lines = HeaderText.lines(text)
        firstLine = HeaderText.trimmed(lines.first ?? "")
        var section = ""
        for line in lines.dropFirst() {
            let t = HeaderText.trimmed(line)
            if t.hasPrefix(";") {
                if program == nil, let range = t.range(of: "created by ") {
                    program = HeaderText.trimmed(t[range.upperBound...])
                }
                continue
            }
            if t.hasPrefix("["), t.hasSuffix("]") {
                section = String(t.dropFirst().dropLast()).lowercased()
                continue
            }
            guard section != "comment", !t.isEmpty, let eq = t.firstIndex(of: "=") else { continue }
            let key = HeaderText.trimmed(t[..<eq]).lowercased(), value = String(t[t.index(after: eq)...])
            sections[section, default: [:]][key] = value
            entries[section, default: []].append((key, value))
        }
    }

    /// The value of `key` in `section` (both case-insensitive), trimmed.
    func value(_ section: String, _ key: String) -> String? {
        sections[section.lowercased()]?[key.lowercased()].map { HeaderText.trimmed($0) }
    }

    /// The `Ch<n>` entries of `[Channel Infos]`, n = 1…count; errors name `name`.
    func channels(count: Int, name: String) throws -> [Channel] {
        try (1...count).map { n in
            guard let entry = sections["channel infos"]?["ch\(n)"] else {
                throw LabFormatError(name, "[Channel Infos] has no Ch\(n) for channel \(n) of \(count)")
            }
            let fields = Self.fields(entry)
            let resolutionText = fields.count > 2 ? fields[2] : ""
            var resolution = 1.0
            if !resolutionText.isEmpty {
                guard let r = HeaderText.number(resolutionText) else {
                    throw LabFormatError(name, "Ch\(n) (\(fields[0])): resolution is not a number: \"\(resolutionText)\"")
                }
                resolution = r
            }
            let unit = fields.count > 3 && !fields[3].isEmpty ? fields[3] : "\u{B5}V"
            return Channel(name: fields[0], resolution: resolution, unit: unit)
        }
    }

    /// The comma-separated fields of an entry, `\1` turned back into commas.
    static func fields(_ entry: String) -> [String] {
        entry.split(separator: ",", omittingEmptySubsequences: false).map {
            HeaderText.trimmed($0.replacingOccurrences(of: "\\1", with: ","))
        }
    }
}
