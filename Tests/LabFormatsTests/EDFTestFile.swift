import Foundation
import TestSupport

/// Builds small EDF/EDF+/BDF files for the importer tests, malformed on purpose where a test asks.
struct EDFTestFile {
    struct Signal {
        var label: String
        var dimension = "uV"
        var physical: (String, String) = ("-3200", "3200")
        var digital: (String, String) = ("-32768", "32767")
        var samplesPerRecord: Int
        /// Record r's digital values (ignored for annotation signals).
        var values: (Int) -> [Int32] = { _ in [] }
        /// Record r's TAL text (annotation signals), padded with NULs.
        var tals: (Int) -> String = { _ in "" }
    }

    var bdf = false
    var reserved = ""
    var records = 1
    /// What the header says about the record count (nil: the truth).
    var statedRecords: String?
    var duration = "1"
    var headerBytesField: String?
    var signals: [Signal] = []

    /// A space-padded ASCII field of `width` bytes.
    static func field(_ s: String, _ width: Int) -> [UInt8] {
        Array((s + String(repeating: " ", count: max(0, width - s.utf8.count))).utf8.prefix(width))
    }

    var bytes: [UInt8] {
        let ns = signals.count
        var b: [UInt8] = bdf ? [0xFF] + Self.field("BIOSEMI", 7) : Self.field("0", 8)
        b += Self.field("X X X X", 80) + Self.field("Startdate 01-JAN-2024 X X TestRig", 80)
        b += Self.field("01.01.24", 8) + Self.field("10.00.00", 8)
        b += Self.field(headerBytesField ?? String(256 * (ns + 1)), 8)
        b += Self.field(reserved.isEmpty && bdf ? "24BIT" : reserved, 44)
        b += Self.field(statedRecords ?? String(records), 8) + Self.field(duration, 8) + Self.field(String(ns), 4)
        for s in signals { b += Self.field(s.label, 16) }
        for _ in signals { b += Self.field("", 80) }
        for s in signals { b += Self.field(s.dimension, 8) }
        for s in signals { b += Self.field(s.physical.0, 8) }
        for s in signals { b += Self.field(s.physical.1, 8) }
        for s in signals { b += Self.field(s.digital.0, 8) }
        for s in signals { b += Self.field(s.digital.1, 8) }
        for _ in signals { b += Self.field("", 80) }
        for s in signals { b += Self.field(String(s.samplesPerRecord), 8) }
        for _ in signals { b += Self.field("", 32) }
        let width = bdf ? 3 : 2
        for r in 0..<records {
            for s in signals {
                if s.label.lowercased().hasSuffix("annotations") {
                    var tal = Array(s.tals(r).utf8)
                    tal += [UInt8](repeating: 0, count: max(0, s.samplesPerRecord * width - tal.count))
                    b += tal.prefix(s.samplesPerRecord * width)
                } else {
                    let values = s.values(r)
                    for i in 0..<s.samplesPerRecord {
                        let v = UInt32(bitPattern: i < values.count ? values[i] : 0)
                        b += (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
                    }
                }
            }
        }
        return b
    }

    /// An annotation signal of `samples` samples per record with the given TALs per record.
    static func annotations(_ samples: Int, _ tals: @escaping (Int) -> String) -> Signal {
        Signal(label: "EDF Annotations", dimension: "", samplesPerRecord: samples, tals: tals)
    }

    /// A time-keeping TAL for a record starting at `onset` seconds.
    static func timeKeeping(_ onset: String) -> String { "+\(onset)\u{14}\u{14}\u{0}" }

    /// An annotation TAL.
    static func tal(_ onset: String, _ duration: String? = nil, _ texts: String...) -> String {
        "+\(onset)" + (duration.map { "\u{15}\($0)" } ?? "") + "\u{14}" + texts.map { $0 + "\u{14}" }.joined() + "\u{0}"
    }

    /// Writes the file into a new scratch folder as `name`.
    func write(_ name: String = "test.edf") throws -> URL {
        let url = try ScratchFolder.make().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}

/// The error's one line, or "no error", and scratch folders for the files a test writes.
extension ScratchFolder {
    /// The error's one line, or "no error".
    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch { return "\(error)" }
    }
}
