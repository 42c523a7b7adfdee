import Foundation
import TestSupport

/// Finds the recordings in `Tests/Fixtures` (see its README.md for where
/// each comes from), relative to this source file, and makes scratch files.
enum LabFixtures {
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/LabFormatsTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// The fixture at `name` (a path relative to Tests/Fixtures).
    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Writes `bytes` to a new temporary file named `name` and returns its URL.
    static func scratch(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = try ScratchFolder.make().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    /// The error's one line, or "no error".
    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch { return "\(error)" }
    }
}

/// Builds small XDF files for the malformed-input tests.
struct XDFBuilder {
    var bytes: [UInt8] = Array("XDF:".utf8)

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func le(_ value: Double) -> [UInt8] { le(value.bitPattern) }
    static func le(_ value: Float) -> [UInt8] { le(value.bitPattern) }

    /// A chunk with a 4-byte length field.
    mutating func chunk(tag: UInt16, _ content: [UInt8]) {
        bytes += [4] + Self.le(UInt32(content.count + 2)) + Self.le(tag) + content
    }

    mutating func fileHeader() { chunk(tag: 1, Array("<?xml version=\"1.0\"?><info><version>1.0</version></info>".utf8)) }

    mutating func stream(_ id: UInt32, name: String, type: String, channels: Int, rate: Double, format: String, labels: [String] = [],
                         units: [String]? = nil) {
        let units = units ?? labels.map { _ in "uV" }
        let desc = labels.isEmpty ? "<desc/>" : "<desc><channels>" + zip(labels, units).map { "<channel><label>\($0)</label><unit>\($1)</unit><type>EEG</type></channel>" }.joined() + "</channels></desc>"
        let xml = "<?xml version=\"1.0\"?><info><name>\(name)</name><type>\(type)</type><channel_count>\(channels)</channel_count><nominal_srate>\(rate)</nominal_srate><channel_format>\(format)</channel_format><created_at>1</created_at>\(desc)</info>"
        chunk(tag: 2, Self.le(id) + Array(xml.utf8))
    }

    /// float32 samples, one row per sample; a nil stamp is omitted.
    mutating func samples(_ id: UInt32, stamps: [Double?], rows: [[Float]]) {
        var content = Self.le(id) + [4] + Self.le(UInt32(rows.count))
        for (stamp, row) in zip(stamps, rows) {
            if let stamp { content += [8] + Self.le(stamp) } else { content += [0] }
            for v in row { content += Self.le(v) }
        }
        chunk(tag: 3, content)
    }

    mutating func strings(_ id: UInt32, stamps: [Double], texts: [String]) {
        var content = Self.le(id) + [1, UInt8(texts.count)]
        for (stamp, text) in zip(stamps, texts) { content += [8] + Self.le(stamp) + [1, UInt8(text.utf8.count)] + Array(text.utf8) }
        chunk(tag: 3, content)
    }

    mutating func clockOffset(_ id: UInt32, time: Double, offset: Double) { chunk(tag: 4, Self.le(id) + Self.le(time) + Self.le(offset)) }

    /// A file of 2 channels at 100 Hz with `n` samples from t = 1000 s (the
    /// stamps as given by `stamp`), and a marker stream.
    static func simple(n: Int = 500, stamp: (Int) -> Double? = { 1000 + Double($0) / 100 }, value: (Int, Int) -> Float = { Float($0 * 10 + $1) },
                       markers: [(Double, String)] = [(1001, "start_trial;label=1")], markerStream: Bool = true) -> [UInt8] {
        var b = XDFBuilder()
        b.fileHeader()
        b.stream(1, name: "amp", type: "EEG", channels: 2, rate: 100, format: "float32", labels: ["Oz", "Pz"])
        if markerStream { b.stream(2, name: "cues", type: "Markers", channels: 1, rate: 0, format: "string") }
        b.samples(1, stamps: (0..<n).map(stamp), rows: (0..<n).map { i in [value(i, 0), value(i, 1)] })
        if markerStream { b.strings(2, stamps: markers.map(\.0), texts: markers.map(\.1)) }
        return b.bytes
    }
}
