import UtopiaProtocol

/// A message a ``Redecoder``'s decoder sent, with the recorded time it sent it at.
///
/// ```swift
/// for sent in Redecoder().run(records).messages {
///     if case .predictedTargetProb(let p) = sent.message { print(sent.time, p.objID, p.errorProbability) }
/// }
/// ```
public struct RedecodedMessage: Equatable, Sendable {
    /// Engine-clock seconds, on the recording's clock.
    public var time: Double
    /// What the decoder sent.
    public var message: UtopiaMessage
}
