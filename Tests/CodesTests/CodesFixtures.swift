import Foundation

/// Finds the reference fixtures in `Tests/Fixtures` (see its README.md for
/// where each file comes from), relative to this source file.
enum CodesFixtures {
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/CodesTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    /// The entries of codes-pyntbci.json.
    static func pyntbciCodes() throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("codes-pyntbci.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return root?["codes"] as? [[String: Any]] ?? []
    }

    /// A 0/1 list from JSON (nil for JSON null or a missing key).
    static func bits(_ value: Any?) -> [UInt8]? {
        (value as? [Any])?.compactMap { ($0 as? NSNumber)?.uint8Value }
    }

    /// A list of 0/1 lists from JSON.
    static func rows(_ value: Any?) -> [[UInt8]] {
        (value as? [Any])?.compactMap { bits($0) } ?? []
    }

    /// A fresh temporary folder for one test.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codebook-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
