import Foundation
import Testing
@testable import NoiseTagging

/// The Settings article lists every setting with its type, range, default
/// and meaning, as the definitions hold them: an integrator reads the
/// table, not the source.
@Suite struct SettingsArticleTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/NoiseTagging/NoiseTagging.docc/Settings.md")

    /// The table the article must hold, one row per title in declaration order.
    static func table() -> String {
        var rows = ["| title | value | default | what it does |", "| --- | --- | --- | --- |"]
        for title in NoiseTagSettingTitles.allCases {
            let d = title.definition
            let value = d.defaultValue.description.isEmpty ? "(empty)" : "`\(d.defaultValue)`"
            rows.append("| `\(title.rawValue)` | \(d.kind.words) | \(value) | \(d.summary.replacingOccurrences(of: "|", with: "\\|")) |")
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
