/// Why CurveZMQ security cannot be set up: a key text that is not a key,
/// a key file that cannot be used, or a libzmq without CURVE. Names the
/// thing (the file, the key text, libzmq) and the reason, in one line.
///
/// ```swift
/// do {
///     let key = try CurveKey(z85: "too short")
/// } catch {
///     print(error)   // curve key "too short": 9 characters, a Z85 key has 40
/// }
/// ```
public struct CurveError: Error, Equatable, CustomStringConvertible {
    /// What is wrong: a file path, `curve key "…"`, or `libzmq`.
    public let subject: String
    /// Why it cannot be used.
    public let reason: String

    /// "SUBJECT: REASON".
    public var description: String { "\(subject): \(reason)" }
}
