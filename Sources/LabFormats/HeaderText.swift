import Foundation

/// Text as lab programs write it in headers and sidecar files: UTF-8 when the
/// bytes are valid UTF-8, otherwise Latin-1 (Windows recorders write "µV" as
/// the single byte 0xB5), which decodes every byte sequence; a leading byte
/// order mark is dropped. Lines end in LF, CRLF or CR.
enum HeaderText {
    /// The bytes as text (UTF-8, else Latin-1).
    static func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var array = Array(bytes)
        if array.starts(with: [0xEF, 0xBB, 0xBF]) { array.removeFirst(3) }
        if let text = String(validating: array, as: UTF8.self) { return text }
        return String(array.map { Character(Unicode.Scalar($0)) })
    }

    /// The file's text, or an ``LabFormatError`` naming it when it cannot be read.
    static func read(_ url: URL) throws -> String {
        decode(try contents(url))
    }

    /// The file's bytes, or an ``LabFormatError`` naming it when it is absent or unreadable.
    static func contents(_ url: URL) throws -> [UInt8] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw LabFormatError(url.lastPathComponent, "no such file (\(url.path))")
        }
        guard !isFolder.boolValue else { throw LabFormatError(url.lastPathComponent, "is a folder, not a file") }
        do { return [UInt8](try Data(contentsOf: url, options: .mappedIfSafe)) } catch {
            throw LabFormatError(url.lastPathComponent, "cannot be read (\(error.localizedDescription))")
        }
    }

    /// The text's lines without their ends (LF, CRLF or CR).
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// The string without surrounding spaces, tabs and NUL bytes (EDF pads
    /// fields with spaces; some writers pad with NULs).
    static func trimmed<S: StringProtocol>(_ s: S) -> String {
        String(s).trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
    }

    /// A decimal number as headers write it: padded, with a leading "+", or
    /// with a decimal comma; nil when it is not one or is not finite.
    static func number<S: StringProtocol>(_ s: S) -> Double? {
        let t = trimmed(s)
        guard !t.isEmpty, let v = Double(t) ?? Double(t.replacingOccurrences(of: ",", with: ".")), v.isFinite else { return nil }
        return v
    }

    /// A whole number as headers write it ("65", " 65 ", "65.0"); nil otherwise.
    static func integer<S: StringProtocol>(_ s: S) -> Int? {
        let t = trimmed(s)
        if let v = Int(t) { return v }
        guard let v = number(t), v == v.rounded(), abs(v) < 1e15 else { return nil }
        return Int(v)
    }

    /// Micro-volts per one of `unit` for voltage units (V, mV, µV, uV, nV,
    /// or written out: volts … nanovolts), nil for any other unit.
    static func microvoltsPer(_ unit: String) -> Double? {
        switch unit.replacingOccurrences(of: "\u{3BC}", with: "\u{B5}") {
        case "V", "v": 1e6
        case "mV", "mv": 1e3
        case "\u{B5}V", "uV", "uv", "\u{B5}v": 1
        case "nV", "nv": 1e-3
        default:
            // Written out, as LSL's channel metadata often gives them.
            switch unit.lowercased() {
            case "volt", "volts": 1e6
            case "millivolt", "millivolts": 1e3
            case "microvolt", "microvolts": 1
            case "nanovolt", "nanovolts": 1e-3
            default: nil
            }
        }
    }
}
