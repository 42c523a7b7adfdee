import Foundation

/// Why JSON did not decode, in words fit for an error line: the field and
/// what it should hold, never a Swift type name or a decoder's dump.
public enum JSONProblem {
    /// `error` in words. `data`, when given, tells "not JSON" from JSON
    /// whose value does not fit (Foundation on Linux reports a fraction
    /// where a whole number belongs as corrupt data with no field named).
    public static func describe(_ error: any Error, in data: Data? = nil) -> String {
        if let data, let reason = beyondReach(in: data) { return reason }
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, _):
            return "no \"\(key.stringValue)\" field"
        case .typeMismatch(let type, let context) where context.codingPath.isEmpty,
             .valueNotFound(let type, let context) where context.codingPath.isEmpty:
            return "not \(kind(type))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\"\(field(context.codingPath))\" must be \(kind(type))"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "\"\(field(context.codingPath))\": \(context.debugDescription)"
        case .dataCorrupted where data.map({ (try? JSONSerialization.jsonObject(with: $0, options: .fragmentsAllowed)) != nil }) == true:
            let fractions = data.map(fractionalFields) ?? []
            return "a value of the wrong kind (a fraction where a whole number belongs?"
                + (fractions.isEmpty ? ")" : " \(fractions.joined(separator: ", ")))")
        case .dataCorrupted:
            return data.flatMap(syntax) ?? "not JSON"
        @unknown default:
            return "\(error)"
        }
    }

    /// `error`, from decoding a `type` from `data`, in words, naming the
    /// field where Foundation does not: when it reports corrupt data with
    /// no field named (on Linux, a fraction, or a number beyond 64 bits,
    /// where a whole number belongs), each field holding such a number is
    /// set to 0 in turn, and the one whose repair lets `type` decode is
    /// named; otherwise as ``describe(_:in:)``.
    public static func describe<T: Decodable>(_ error: any Error, decoding type: T.Type, from data: Data,
                                              with decoder: JSONDecoder = JSONDecoder()) -> String {
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty,
           let root = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) {
            for (path, value) in numbers(in: root, at: []) where value.rounded() != value || abs(value) >= 9.2e18 {
                guard let repaired = try? JSONSerialization.data(withJSONObject: setting(path, in: root), options: .fragmentsAllowed),
                      (try? decoder.decode(type, from: repaired)) != nil else { continue }
                let name = path.map { $0.key ?? "[\($0.index ?? 0)]" }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
                return value.rounded() != value ? "\"\(name)\" must be a whole number (it is \(value))"
                                                : "\"\(name)\" is \(value), beyond a whole number's range (about ±9.2e18)"
            }
        }
        return describe(error, in: data)
    }

    /// One step of a path into a JSON value: an object's key or an array's index.
    private struct Step {
        var key: String?
        var index: Int?
    }

    /// Every number in a JSON value (as `JSONSerialization` reads it), with its path.
    private static func numbers(in value: Any, at path: [Step]) -> [([Step], Double)] {
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { numbers(in: object[$0]!, at: path + [Step(key: $0)]) }
        }
        if let array = value as? [Any] {
            return array.indices.flatMap { numbers(in: array[$0], at: path + [Step(index: $0)]) }
        }
        if value is Bool { return [] }
        if let number = value as? NSNumber, number.doubleValue.isFinite { return [(path, number.doubleValue)] }
        return []
    }

    /// `value` with the number at `path` set to 0.
    private static func setting(_ path: [Step], in value: Any) -> Any {
        guard let step = path.first else { return 0 }
        let rest = Array(path.dropFirst())
        if let key = step.key, var object = value as? [String: Any], let inner = object[key] {
            object[key] = setting(rest, in: inner)
            return object
        }
        if let index = step.index, var array = value as? [Any], array.indices.contains(index) {
            array[index] = setting(rest, in: array[index])
            return array
        }
        return value
    }

    /// Where JSON text `data` stops being JSON (RFC 8259), with its line
    /// and column: empty, cut short inside an object, array or string, a
    /// bracket too many, a comma missing or one too many, a comment, text
    /// after the end; nil when it is JSON (the fault is elsewhere). Call it
    /// before decoding a file a person wrote: Foundation's reader takes a
    /// trailing comma.
    public static func syntax(in data: Data) -> String? { JSONSyntax.problem(in: [UInt8](data)) }

    /// What in the JSON text `data` no JSON reader here can take, in words,
    /// or nil: a number beyond a double's range (`1e400`), or nesting
    /// deeper than Foundation's reader goes (512 levels). Either makes the
    /// reader fail with a message about something else.
    public static func beyondReach(in data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        for match in text.matches(of: /-?[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+/) {
            if let value = Double(match.output.0), !value.isFinite {
                return "the number \(match.output.0) is beyond a double's range (about ±1.8e308)"
            }
        }
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest > 500 ? "arrays and objects nested \(deepest) deep, deeper than a JSON reader takes (512)" : nil
    }

    /// "not a JSON object of `what`", and why when that adds something
    /// (the field, or that the text is not JSON at all).
    public static func notAnObject(of what: String, _ error: any Error, in data: Data? = nil) -> String {
        let why = describe(error, in: data)
        return "not a JSON object of \(what)" + (why.hasPrefix("not a JSON object") ? "" : ": \(why)")
    }

    /// A key that stands twice in one object of the JSON text `data`, in
    /// words ("\"key\" is given twice in one object (line 3)"), or nil.
    /// Decoders keep one of the two silently; a hand-written file that
    /// sets a key twice means one of its values is ignored. Call it on
    /// text that has decoded: it reads only as far as it must.
    public static func duplicateKey(in data: Data) -> String? {
        enum Container { case object(Set<String>), array }
        var stack: [Container] = []
        var expectingKey = false
        var line = 1
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"): line += 1
            case UInt8(ascii: "{"): stack.append(.object([])); expectingKey = true
            case UInt8(ascii: "["): stack.append(.array); expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast(); expectingKey = false
            case UInt8(ascii: ","): if case .object = stack.last { expectingKey = true }
            case UInt8(ascii: ":"): expectingKey = false
            case UInt8(ascii: "\""):
                var end = index + 1, escaped = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") || escaped {
                    escaped = !escaped && bytes[end] == UInt8(ascii: "\\")
                    if bytes[end] == UInt8(ascii: "\n") { line += 1 }
                    end += 1
                }
                if expectingKey, case .object(var keys) = stack.last {
                    let quoted = Data(bytes[index...min(end, bytes.count - 1)])
                    let key = (try? JSONDecoder().decode(String.self, from: quoted)) ?? String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
                    guard keys.insert(key).inserted else { return "\"\(key)\" is given twice in one object (line \(line))" }
                    stack[stack.count - 1] = .object(keys)
                }
                index = end
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The fields of the JSON text `data` that hold a number with a
    /// fraction, as `"name" is 4.5`, at most three: the suspects when the
    /// decoder says a value is of the wrong kind without naming it.
    static func fractionalFields(in data: Data) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else { return [] }
        var found: [String] = []
        func visit(_ value: Any, _ path: String) {
            guard found.count < 3 else { return }
            if let object = value as? [String: Any] {
                for key in object.keys.sorted() { visit(object[key]!, path.isEmpty ? key : "\(path).\(key)") }
            } else if let array = value as? [Any] {
                for (index, element) in array.enumerated() { visit(element, "\(path)[\(index)]") }
            } else if let number = value as? NSNumber, number.doubleValue.isFinite, number.doubleValue.rounded() != number.doubleValue {
                found.append("\"\(path)\" is \(number.doubleValue)")
            }
        }
        visit(root, "")
        return found
    }

    /// What a value of `type` is, in words.
    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt8.Type, is UInt64.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        case is String.Type: return "a text"
        case is Bool.Type: return "true or false"
        case is [Any].Type, is [String].Type, is [Int].Type, is [Double].Type: return "a list"
        default: return "a JSON object"
        }
    }
}
