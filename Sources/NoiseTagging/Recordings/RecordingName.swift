import Foundation

/// A recording folder's name: when and why the recording started (the left
/// part) and, once closed, why and when it ended (the right part).
///
/// `2019-09-23 09.44.45 +0000 App started – 2.34h in background 2019-09-23 12.05.10 +0000`
///
/// Times are UTC, `yyyy-MM-dd HH.mm.ss +0000` (dots, not colons), so names
/// sort by start. The right part of one recording equals the left part of
/// the next, read backwards. The grammar is in `Protocols/recordings.md`.
///
/// ```swift
/// let open = RecordingName(start: Date(), reason: "App started")
/// let closed = open.ended(by: RecordingName(start: Date(), reason: "developer panel"))
/// RecordingName(folderName: closed.folderName) == closed  // true
/// ```
public struct RecordingName: Hashable, Sendable, CustomStringConvertible {
    /// When the recording started (whole seconds).
    public let start: Date
    /// Why it started.
    public let startReason: String
    /// When it ended; nil while open (or after a crash).
    public let end: Date?
    /// Why it ended; nil while open (or after a crash).
    public let endReason: String?

    /// The text between the two parts: space, en dash (U+2013), space.
    public static let separator = " \u{2013} "

    /// Characters in a formatted time: `2019-09-23 09.44.45 +0000`.
    public static let timeLength = 25

    /// Longest reason kept, in characters; longer texts are cut.
    public static let maximumReasonLength = 60

    /// An open recording started at `start` (cut to whole seconds) for `reason`
    /// (made safe with ``sanitized(reason:)``).
    public init(start: Date, reason: String) {
        self.start = Self.wholeSeconds(start)
        startReason = Self.sanitized(reason: reason)
        end = nil
        endReason = nil
    }

    private init(start: Date, startReason: String, end: Date?, endReason: String?) {
        self.start = start
        self.startReason = startReason
        self.end = end
        self.endReason = endReason
    }

    /// This recording, closed at `date` for `reason`.
    public func ended(at date: Date, reason: String) -> RecordingName {
        RecordingName(start: start, startReason: startReason, end: Self.wholeSeconds(date),
                      endReason: Self.sanitized(reason: reason))
    }

    /// This recording, closed because `next` started: its right part mirrors `next`'s left part.
    public func ended(by next: RecordingName) -> RecordingName {
        RecordingName(start: start, startReason: startReason, end: next.start, endReason: next.startReason)
    }

    /// True while the recording has no right part (open, or left so by a crash).
    public var isOpen: Bool { end == nil }

    /// `time reason`, e.g. `2019-09-23 09.44.45 +0000 App started`.
    public var leftPart: String { Self.format(start) + " " + startReason }

    /// `reason time`, e.g. `2.34h in background 2019-09-23 12.05.10 +0000`; nil while open.
    public var rightPart: String? {
        guard let end, let endReason else { return nil }
        return endReason + " " + Self.format(end)
    }

    /// The folder name: the left part, then (once closed) the separator and the right part.
    public var folderName: String {
        guard let rightPart else { return leftPart }
        return leftPart + Self.separator + rightPart
    }

    /// The folder name.
    public var description: String { folderName }

    /// True when `next`'s left part is this name's right part (the chain rule).
    public func isFollowed(by next: RecordingName) -> Bool {
        end == next.start && endReason == next.startReason
    }

    /// Parses a folder name; nil when it does not follow the grammar.
    public init?(folderName: String) {
        let parts = folderName.components(separatedBy: Self.separator)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        guard let first = Self.half(parts[0], timeFirst: true) else { return nil }
        let (start, startReason) = first
        guard parts.count == 2 else {
            self.init(start: start, startReason: startReason, end: nil, endReason: nil)
            return
        }
        guard let second = Self.half(parts[1], timeFirst: false) else { return nil }
        let (end, endReason) = second
        self.init(start: start, startReason: startReason, end: end, endReason: endReason)
    }

    /// One side of a folder name: "TIME REASON" (the start) or "REASON TIME"
    /// (the end); nil when the time or the reason is not valid.
    private static func half(_ text: String, timeFirst: Bool) -> (Date, String)? {
        guard text.count > timeLength + 1 else { return nil }
        let time = timeFirst ? text.prefix(timeLength) : text.suffix(timeLength)
        let rest = timeFirst ? text.dropFirst(timeLength) : text.dropLast(timeLength)
        guard let date = date(String(time)), (timeFirst ? rest.first : rest.last) == " " else { return nil }
        let reason = String(timeFirst ? rest.dropFirst() : rest.dropLast())
        return isValidReason(reason) ? (date, reason) : nil
    }

    // MARK: Times

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `date` as `yyyy-MM-dd HH.mm.ss +0000` in UTC (seconds cut).
    public static func format(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: wholeSeconds(date))
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        let year = String(c.year ?? 0)
        let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(paddedYear)-\(two(c.month))-\(two(c.day)) \(two(c.hour)).\(two(c.minute)).\(two(c.second)) +0000"
    }

    /// Parses `yyyy-MM-dd HH.mm.ss ±HHMM` (any offset); nil for anything else.
    public static func date(_ text: String) -> Date? {
        let chars = Array(text.utf8)
        guard chars.count == timeLength else { return nil }
        let layout = Array("dddd-dd-dd dd.dd.dd sdddd".utf8)
        for (c, l) in zip(chars, layout) {
            switch l {
            case UInt8(ascii: "d"): guard (48...57).contains(c) else { return nil }
            case UInt8(ascii: "s"): guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return nil }
            default: guard c == l else { return nil }
            }
        }
        func number(_ from: Int, _ count: Int) -> Int {
            chars[from..<(from + count)].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        let (month, day, hour, minute, second) = (number(5, 2), number(8, 2), number(11, 2), number(14, 2), number(17, 2))
        let offsetHours = number(21, 2), offsetMinutes = number(23, 2)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
              offsetHours < 24, offsetMinutes < 60 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (number(0, 4), month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        guard let local = utc.date(from: components),
              utc.component(.day, from: local) == day else { return nil }
        let offset = Double(offsetHours * 3600 + offsetMinutes * 60) * (chars[20] == UInt8(ascii: "-") ? -1 : 1)
        return local.addingTimeInterval(-offset)
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    // MARK: Reasons

    /// `text` made safe for a folder name on every file system: `:` becomes
    /// `;`, `/` and `\` become `-`, the en dash becomes `-`, `<>"|?*` become
    /// `_`, control characters and runs of spaces become one space; trimmed,
    /// cut to ``maximumReasonLength`` characters; "recording" when empty.
    public static func sanitized(reason text: String) -> String {
        var out = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let mapped: Character
            switch scalar {
            case ":": mapped = ";"
            case "/", "\\", "\u{2013}": mapped = "-"
            case "<", ">", "\"", "|", "?", "*": mapped = "_"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace {
                    mapped = " "
                } else {
                    mapped = Character(scalar)
                }
            }
            if mapped == " " {
                if lastWasSpace { continue }
                lastWasSpace = true
            } else {
                lastWasSpace = false
            }
            out.append(mapped)
        }
        var cut = String(out.prefix(maximumReasonLength))
        while cut.hasSuffix(" ") { cut.removeLast() }
        return cut.isEmpty ? "recording" : cut
    }

    private static func isValidReason(_ reason: String) -> Bool {
        !reason.isEmpty && sanitized(reason: reason) == reason
    }
}
