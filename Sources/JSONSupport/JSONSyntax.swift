/// A check of JSON text against the grammar of RFC 8259, and nothing
/// more: where a hand-written file stops being JSON, in words with its
/// line and column. Foundation's reader on Linux says only "not valid JSON"
/// and takes some text that is not JSON (a trailing comma), so a file a
/// person wrote is checked here before it is decoded.
enum JSONSyntax {
    private enum Expect { case value(afterComma: Bool, allowClose: Bool), key(afterComma: Bool, allowClose: Bool), colon, commaOrClose }

    /// The offset of the first byte of `bytes` that starts no valid UTF-8
    /// sequence (RFC 3629), or nil when all of it is UTF-8.
    static func firstNonUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let length: Int
            switch bytes[i] {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return i
            }
            // The standard library's rules for the one sequence: continuation bytes, overlongs, surrogates.
            guard i + length <= bytes.count, String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil else { return i }
            i += length
        }
        return nil
    }

    /// The first fault in `bytes`, or nil when they are one JSON value.
    /// Deeper nesting than `maximumDepth` is left to the reader.
    static func problem(in bytes: [UInt8], maximumDepth: Int = 512) -> String? {
        var i = 0
        var open: [UInt8] = []
        var expect = Expect.value(afterComma: false, allowClose: false)
        func place(_ at: Int) -> String {
            var line = 1, column = 1
            for byte in bytes[..<min(at, bytes.count)] { if byte == 0x0A { line += 1; column = 1 } else { column += 1 } }
            return "line \(line), column \(column)"
        }
        func shown(_ byte: UInt8) -> String { byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte \(byte)" }
        func unclosed() -> String { "not JSON: it ends inside an unclosed \(open.last == UInt8(ascii: "{") ? "object" : "array") (cut short?)" }
        // JSON text is UTF-8 (RFC 8259 §8.1): a Latin-1 é is a byte no reader here takes, and says so.
        if let bad = firstNonUTF8(bytes) {
            return "not UTF-8 text: byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at \(place(bad)) is no UTF-8 (JSON is UTF-8: save the file as UTF-8)"
        }

        while true {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
            guard i < bytes.count else {
                if case .commaOrClose = expect, open.isEmpty { return nil }
                return open.isEmpty ? "the file is empty" : unclosed()
            }
            let c = bytes[i]
            if c == UInt8(ascii: "/") { return "not JSON: '/' at \(place(i)) (JSON has no comments)" }
            switch expect {
            case .value(let afterComma, let allowClose) where c == UInt8(ascii: "]") || c == UInt8(ascii: "}"),
                 .key(let afterComma, let allowClose) where c == UInt8(ascii: "]") || c == UInt8(ascii: "}"):
                let closes = open.last.map { ($0 == UInt8(ascii: "[")) == (c == UInt8(ascii: "]")) } ?? false
                if closes, allowClose {
                    open.removeLast()
                    i += 1
                    expect = .commaOrClose
                    continue
                }
                if closes, afterComma { return "not JSON: a comma before \(shown(c)) at \(place(i)) (JSON allows no trailing comma)" }
                return "not JSON: an unexpected \(shown(c)) at \(place(i))"
            case .value:
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    guard open.count < maximumDepth else { return nil }
                    open.append(c)
                    i += 1
                    expect = c == UInt8(ascii: "{") ? .key(afterComma: false, allowClose: true) : .value(afterComma: false, allowClose: true)
                    continue
                }
                let start = i
                if c == UInt8(ascii: "\"") {
                    if let fault = string(bytes, &i) { return fault.map { "not JSON: \($0) at \(place(i))" } ?? "not JSON: it ends inside a string (cut short?)" }
                } else if c == UInt8(ascii: "-") || (0x30...0x39).contains(c) {
                    guard number(bytes, &i) else { return "not JSON: a malformed number at \(place(start))" }
                } else if let word = ["true", "false", "null"].first(where: { bytes[i...].starts(with: $0.utf8) }) {
                    i += word.utf8.count
                } else {
                    return "not JSON: an unexpected \(shown(c)) at \(place(i)) (a value belongs here\(c == UInt8(ascii: "'") ? "; JSON quotes with \"" : ""))"
                }
                expect = .commaOrClose
            case .key:
                guard c == UInt8(ascii: "\"") else {
                    return "not JSON: an unexpected \(shown(c)) at \(place(i)) (a member's name in \" belongs here)"
                }
                if let fault = string(bytes, &i) { return fault.map { "not JSON: \($0) at \(place(i))" } ?? "not JSON: it ends inside a string (cut short?)" }
                expect = .colon
            case .colon:
                guard c == UInt8(ascii: ":") else { return "not JSON: an unexpected \(shown(c)) at \(place(i)) (':' belongs after a member's name)" }
                i += 1
                expect = .value(afterComma: false, allowClose: false)
            case .commaOrClose:
                guard let top = open.last else { return "not JSON: more text after the value ends, at \(place(i))" }
                if c == UInt8(ascii: ",") {
                    i += 1
                    expect = top == UInt8(ascii: "{") ? .key(afterComma: true, allowClose: false) : .value(afterComma: true, allowClose: false)
                } else if (c == UInt8(ascii: "}") && top == UInt8(ascii: "{")) || (c == UInt8(ascii: "]") && top == UInt8(ascii: "[")) {
                    open.removeLast()
                    i += 1
                } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    return "not JSON: an unexpected \(shown(c)) at \(place(i))"
                } else {
                    return "not JSON: an unexpected \(shown(c)) at \(place(i)) (',' or '\(top == UInt8(ascii: "{") ? "}" : "]")' belongs here: a comma missing?)"
                }
            }
        }
    }

    /// Reads the string that starts at `i` (its opening quote) and leaves
    /// `i` after its closing one: nil when it is well formed; `.some(nil)`
    /// when the text ends inside it; otherwise the fault (with `i` on it).
    private static func string(_ bytes: [UInt8], _ i: inout Int) -> String?? {
        i += 1
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return nil }
            if c < 0x20 { return .some("a control character (byte \(c)) inside a string") }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < bytes.count else { return .some(nil) }
                let e = bytes[i + 1]
                if e == UInt8(ascii: "u") {
                    let hex = bytes[min(i + 2, bytes.count)..<min(i + 6, bytes.count)]
                    guard hex.count == 4, hex.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 || UInt8(ascii: "A")...UInt8(ascii: "F") ~= $0 }) else {
                        return hex.count < 4 && i + 6 > bytes.count ? .some(nil) : .some("a bad \\u escape")
                    }
                    i += 6
                    continue
                }
                guard "\"\\/bfnrt".utf8.contains(e) else { return .some("a bad escape '\\\(Character(UnicodeScalar(e)))'") }
                i += 2
                continue
            }
            i += 1
        }
        return .some(nil)
    }

    /// Reads the number that starts at `i`; false when it is malformed.
    private static func number(_ bytes: [UInt8], _ i: inout Int) -> Bool {
        func digits() -> Int {
            let start = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { return false }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else { _ = digits() }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        // A letter or digit straight after ("01", "1x") is no number either.
        return !(i < bytes.count && (bytes[i].isLetterOrDigit))
    }
}

private extension UInt8 {
    var isLetterOrDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
