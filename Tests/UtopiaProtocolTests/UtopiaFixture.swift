import Foundation
import Testing
import UtopiaProtocol

/// One vector of Tests/Fixtures/utopia-messages.json (made by the
/// MindAffect SDK's `serialize()`): the message its fields describe and the
/// bytes the SDK produced for it.
struct UtopiaFixture: Sendable, CustomTestStringConvertible {
    let name: String
    let version: UInt8
    let message: UtopiaMessage
    let bytes: [UInt8]

    var testDescription: String { name }

    /// All vectors, in file order.
    static func loadAll() throws -> [UtopiaFixture] {
        let data = try Data(contentsOf: try fileURL())
        let file = try JSONDecoder().decode(File.self, from: data)
        return try file.cases.map { entry in
            UtopiaFixture(
                name: entry.name, version: entry.version,
                message: try entry.fields.message(type: entry.type), bytes: try bytes(hex: entry.hex))
        }
    }

    /// Tests/Fixtures/utopia-messages.json, found from this source file's
    /// folder (Tests/UtopiaProtocolTests).
    static func fileURL(filePath: String = #filePath) throws -> URL {
        let url = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()  // Tests/UtopiaProtocolTests
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Fixtures/utopia-messages.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureError("no fixture at \(url.path); run scripts/make-fixtures")
        }
        return url
    }

    static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { throw FixtureError("odd hex length") }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)
            else { throw FixtureError("bad hex at \(index)") }
            return byte
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private struct File: Decodable {
        let cases: [Entry]
    }

    private struct Entry: Decodable {
        let name: String
        let type: String
        let version: UInt8
        let fields: Fields
        let hex: String
    }
}
