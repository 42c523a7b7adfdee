import Foundation

/// What an XDF StreamHeader chunk's XML says about one stream: its name,
/// type, channels, nominal rate, value format and channel labels.
struct XDFStreamHeader: Sendable, Equatable {
    /// The value types XDF allows, with their size in bytes (nil: string).
    enum Format: String, Sendable {
        case float32, double64, int8, int16, int32, int64, string

        /// Bytes per value, nil for strings.
        var size: Int? {
            switch self {
            case .int8: 1
            case .int16: 2
            case .float32, .int32: 4
            case .double64, .int64: 8
            case .string: nil
            }
        }
    }

    /// `<name>`.
    var name: String
    /// `<type>` (e.g. "EEG", "Markers").
    var type: String
    /// `<channel_count>`.
    var channelCount: Int
    /// `<nominal_srate>` (0: irregular).
    var nominalRate: Double
    /// `<channel_format>`.
    var format: Format
    /// `<desc><channels><channel><label>`, in order; empty when absent.
    var labels: [String]
    /// `<desc><channels><channel><unit>`, in the labels' order ("" where a
    /// channel gives none); empty when the labels are.
    var units: [String] = []

    /// Parses the header XML; `subject` names the file and stream in errors.
    init(xml: String, subject: String) throws {
        let info = xml.range(of: "<desc").map { String(xml[..<$0.lowerBound]) } ?? xml
        name = Self.element("name", in: info) ?? ""
        type = Self.element("type", in: info) ?? ""
        guard let count = Self.element("channel_count", in: info).flatMap({ Int($0) }), count > 0, count < 100_000 else {
            throw LabFormatError(subject, "stream \"\(name)\" header has no valid <channel_count>")
        }
        channelCount = count
        let rate = Self.element("nominal_srate", in: info).flatMap { Double($0) } ?? 0
        nominalRate = rate.isFinite && rate > 0 && rate < 1e7 ? rate : 0
        guard let text = Self.element("channel_format", in: info), let format = Format(rawValue: text) else {
            throw LabFormatError(subject, "stream \"\(name)\" header has no valid <channel_format> (float32, double64, int8…int64 or string)")
        }
        self.format = format
        var labels: [String] = [], units: [String] = []
        if let channels = Self.element("channels", in: xml, raw: true) {
            var rest = Substring(channels)
            while let open = rest.range(of: "<channel>") {
                let after = rest[open.upperBound...]
                guard let close = after.range(of: "</channel>") else { break }
                let channel = String(after[..<close.lowerBound])
                labels.append(Self.element("label", in: channel) ?? "")
                units.append(Self.element("unit", in: channel) ?? "")
                rest = after[close.upperBound...]
            }
        }
        self.labels = labels.count == count ? labels : []
        self.units = labels.count == count ? units : []
    }

    /// The text of the first `<tag>…</tag>` in `xml`, trimmed and unescaped
    /// (`raw`: as is); nil when absent or self-closed.
    static func element(_ tag: String, in xml: String, raw: Bool = false) -> String? {
        guard let open = xml.range(of: "<\(tag)>"),
              let close = xml.range(of: "</\(tag)>", range: open.upperBound..<xml.endIndex) else { return nil }
        let inner = String(xml[open.upperBound..<close.lowerBound])
        if raw { return inner }
        return inner.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
