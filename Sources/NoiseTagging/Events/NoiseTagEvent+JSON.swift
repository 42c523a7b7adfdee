import Foundation

extension NoiseTagEvent {
    /// The event as one flat JSON object on one line: `time`, `type`, then
    /// the kind's fields, e.g.
    /// `{"control":"b3","objectID":3,"source":"brain","time":2.5,"trial":1,"type":"press"}`.
    /// Keys are sorted, so the same event always gives the same text.
    ///
    /// ```swift
    /// controller.events.subscribe { print($0.jsonLine) }
    /// ```
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let nested = try? encoder.encode(kind),
              let object = try? JSONSerialization.jsonObject(with: nested) as? [String: Any],
              let (type, payload) = object.first else {
            return "{\"time\":\(time),\"type\":\"unencodable\"}"
        }
        var flat: [String: Any] = ["time": time, "type": type]
        if let fields = payload as? [String: Any] {
            for (key, value) in fields {
                if key == "_0", let inner = value as? [String: Any] {
                    flat.merge(inner) { a, _ in a }
                } else {
                    flat[key == "_0" ? "value" : key] = value
                }
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: flat, options: [.sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else {
            return "{\"time\":\(time),\"type\":\"\(type)\"}"
        }
        return text
    }
}
