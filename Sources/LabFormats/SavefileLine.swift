import Foundation

/// One line of a MindAffect hub savefile:
/// `rts:<recv> sts:<server stamp> t:<MESSAGE> ts:<sender stamp> <fields> <-/<ip:port>`.
/// Stamps are 32-bit milliseconds; ``SavefileImporter`` unwraps them.
struct SavefileLine: Sendable {
    /// The server stamp (`sts`, the hub's clock, common to all clients), or
    /// the sender's `ts` when the line has no `sts`; raw 32-bit milliseconds.
    var stamp: Int64
    /// The message name after `t:` (DATAPACKET, STIMULUSEVENT, …).
    var message: Substring
    /// The text after the sender stamp, without the trailing ` <-/…` address.
    var fields: Substring
    /// Whether the line ended with its ` <-` address (false: cut short).
    var complete: Bool

    /// Parses `line`; nil when it is not a savefile message line.
    init?(_ line: Substring) {
        guard line.hasPrefix("rts:") || line.hasPrefix("sts:") else { return nil }
        guard let t = line.range(of: " t:") else { return nil }
        let head = line[..<t.lowerBound]
        guard let stamp = Self.number(after: "sts:", in: head) ?? Self.number(after: "ts:", in: line[t.upperBound...]) else { return nil }
        let rest = line[t.upperBound...]
        let name = rest.prefix { $0 != " " }
        guard !name.isEmpty else { return nil }
        var fields = rest[name.endIndex...].drop { $0 == " " }
        if fields.hasPrefix("ts:") { fields = fields.drop { $0 != " " }.drop { $0 == " " } }
        if let address = fields.range(of: " <-", options: .backwards) {
            fields = fields[..<address.lowerBound]
            complete = true
        } else {
            complete = false
        }
        self.stamp = stamp
        self.message = name
        self.fields = fields
    }

    /// The integer after `key` in `text`.
    static func number(after key: String, in text: Substring) -> Int64? {
        guard let range = text.range(of: key) else { return nil }
        return Int64(text[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
    }

    /// DATAPACKET fields `v[<channels>x<samples>]:[c1,c2,…,][…]` as samples ×
    /// channels; nil when the shape and the values disagree (a cut line).
    func packet() -> (channels: Int, samples: [[Float]])? {
        guard fields.hasPrefix("v["), let close = fields.firstIndex(of: "]") else { return nil }
        let shape = fields[fields.index(fields.startIndex, offsetBy: 2)..<close].split(separator: "x")
        guard shape.count == 2, let channels = Int(shape[0]), let count = Int(shape[1]), channels > 0, count >= 0 else { return nil }
        let body = fields[fields.index(after: close)...].drop { $0 == ":" }
        var samples: [[Float]] = []
        samples.reserveCapacity(count)
        for group in body.split(separator: "]") {
            let values = group.drop { $0 == "[" }.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == channels else { return nil }
            samples.append(values)
        }
        return samples.count == count ? (channels, samples) : nil
    }

    /// STIMULUSEVENT fields `v[<n>]:{obj,state}{obj,state}…` as (object, state) pairs.
    func stimulusStates() -> [(object: Int, state: UInt8)]? {
        guard let colon = fields.firstIndex(of: ":") else { return nil }
        var pairs: [(Int, UInt8)] = []
        for group in fields[fields.index(after: colon)...].split(separator: "}") {
            let parts = group.drop { $0 == "{" }.split(separator: ",")
            guard parts.count == 2, let object = Int(parts[0]), let state = UInt8(parts[1]) else { return nil }
            pairs.append((object, state))
        }
        return pairs
    }
}
