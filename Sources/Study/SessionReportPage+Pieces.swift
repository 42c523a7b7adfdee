import DecoderService
import Foundation
import JSONSupport

extension SessionReportPage {
    // MARK: Pieces

    func figure(_ svg: String, caption: String) -> String {
        "<figure>\n\(svg)\n<figcaption>\(e(caption))</figcaption>\n</figure>\n"
    }

    /// One section of the page: its anchor, its heading and what it holds.
    func section(_ id: String, _ title: String, _ content: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(e(title))</h2>\n" + content + "</section>\n"
    }

    /// A part of the report shown by `body`, or the sentence saying why it is absent.
    func part<Value>(_ part: SessionReport.Part<Value>, _ body: (Value) -> String) -> String {
        switch part {
        case .absent(let why): return absent(why)
        case .present(let value): return body(value)
        }
    }

    /// A column of a report table: its title, and whether it holds numbers (right-aligned).
    struct Column {
        let title: String
        let numeric: Bool
        static func text(_ title: String) -> Column { Column(title: title, numeric: false) }
        static func number(_ title: String) -> Column { Column(title: title, numeric: true) }
    }

    /// One table of the report: the header row from `columns`, then `rows`
    /// (each a whole `<tr>…</tr>` line).
    func table(_ columns: [Column], class tableClass: String? = nil, rows: [String]) -> String {
        "<table" + (tableClass.map { " class=\"\($0)\"" } ?? "") + ">\n<thead><tr>"
            + columns.map { "<th\($0.numeric ? " class=\"num\"" : "")>\(e($0.title))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n" + rows.joined() + "</tbody>\n</table>\n"
    }

    func absent(_ sentence: String) -> String { "<p class=\"absent\">\(e(sentence))</p>\n" }

    func fact(_ name: String, _ value: String) -> String { "<dt>\(e(name))</dt><dd>\(e(value))</dd>\n" }

    func e(_ text: String) -> String { SVGChart.escaped(text) }

    func fmt(_ format: String, _ value: Double) -> String { String(format: format, value) }

    func formatter(_ pattern: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = pattern
        return f
    }

    func dateTime(_ wall: Double) -> String {
        formatter("EEEE d MMMM yyyy, HH:mm:ss").string(from: Date(timeIntervalSince1970: wall)) + " " + zoneName
    }

    func clock(_ wall: Double) -> String { formatter("HH:mm:ss").string(from: Date(timeIntervalSince1970: wall)) }

    var zoneName: String {
        let seconds = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: report.manifest.startedWallTime))
        if seconds == 0 { return "UTC" }
        return String(format: "UTC%@%02d:%02d", seconds < 0 ? "−" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        if seconds < 60 { return fmt("%.1f s", seconds) }
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total % 3600 / 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }

    /// The embedded decoder's settings as the keys that differ from the
    /// defaults, in the settings file's order ("the defaults" when none do).
    func decoderSettings(_ settings: DecoderServerSettings?) -> String {
        guard let settings else { return "the defaults" }
        func keys(_ s: DecoderServerSettings) -> [String: JSONValue] {
            (try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(s)))?.object ?? [:]
        }
        let given = keys(settings), defaults = keys(DecoderServerSettings())
        let changed = DecoderServerSettings.fileKeys.compactMap { key -> String? in
            guard let value = given[key], value != defaults[key] else { return nil }
            switch value {
            case .number(let n): return "\(key) \(fmt("%g", n))"
            case .string(let text): return "\(key) \(text)"
            default: return nil
            }
        }
        return changed.isEmpty ? "the defaults" : changed.joined(separator: ", ") + " (the rest as default)"
    }
}
