import Foundation
import Testing
@testable import NoiseTagging

/// The Settings article lists every setting with its type, range, default
/// and meaning, as the definitions hold them: an integrator reads the
/// table, not the source.
@Suite struct SettingsArticleTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/NoiseTagging/NoiseTagging.docc/Settings.md")

    /// A kind in words: "true or false", "whole number 1 … 60", "one of …".
    static func words(_ kind: NoiseTagSettingKind) -> String {
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x) }
        switch kind {
        case .bool: return "true or false"
        case .int(let range): return "whole number \(range.lowerBound) … \(range.upperBound)"
        case .double(let range): return "number \(number(range.lowerBound)) … \(number(range.upperBound))"
        case .text: return "text"
        case .choice(let options): return "one of " + options.joined(separator: ", ")
        case .color: return "colour #RRGGBB"
        }
    }

    /// The table the article must hold, one row per title in declaration order.
    static func table() -> String {
        var rows = ["| title | value | default | what it does |", "| --- | --- | --- | --- |"]
        for title in NoiseTagSettingTitles.allCases {
            let d = title.definition
            let value = d.defaultValue.description.isEmpty ? "(empty)" : "`\(d.defaultValue)`"
            rows.append("| `\(title.rawValue)` | \(words(d.kind)) | \(value) | \(d.summary.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return rows.joined(separator: "\n")
    }

    @Test func theArticleListsEverySettingAsDefined() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let expected = Self.table()
        if !text.contains(expected) {
            try? expected.write(toFile: NSTemporaryDirectory() + "/settings-table.md", atomically: true, encoding: .utf8)
        }
        #expect(text.contains(expected), "Settings.md's table differs from the definitions; the expected table is in \(NSTemporaryDirectory())settings-table.md")
    }
}
