/// Why an m-sequence or a set of Gold codes could not be generated.
///
/// Feedback polynomials and seeds are lists of 0/1 values (see ``MSequence``).
public enum CodeGenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The feedback polynomial has no taps at all.
    case emptyPolynomial
    /// A tap is neither 0 nor 1.
    case nonBinaryPolynomial([UInt8])
    /// Every tap is 0, so the register would output zeros only.
    case zeroPolynomial([UInt8])
    /// The register length (polynomial degree) is outside what the generator supports.
    case degreeOutOfRange(degree: Int, allowed: ClosedRange<Int>)
    /// The seed does not have one value per register cell.
    case seedLengthMismatch(seedLength: Int, degree: Int)
    /// A seed value is neither 0 nor 1.
    case nonBinarySeed([UInt8])
    /// An all-zero seed never leaves the zero state.
    case zeroSeed
    /// Gold codes need two polynomials of the same degree.
    case degreesDiffer(Int, Int)

    /// A one-line explanation naming the offending value.
    public var description: String {
        switch self {
        case .emptyPolynomial:
            return "the feedback polynomial is empty"
        case .nonBinaryPolynomial(let taps):
            return "the feedback polynomial \(Self.digits(taps)) has values other than 0 and 1"
        case .zeroPolynomial(let taps):
            return "the feedback polynomial \(Self.digits(taps)) has no tap set"
        case .degreeOutOfRange(let degree, let allowed):
            return "a register of degree \(degree) is not supported (allowed: \(allowed.lowerBound)...\(allowed.upperBound))"
        case .seedLengthMismatch(let seedLength, let degree):
            return "the seed has \(seedLength) values but the polynomial has degree \(degree)"
        case .nonBinarySeed(let seed):
            return "the seed \(Self.digits(seed)) has values other than 0 and 1"
        case .zeroSeed:
            return "the seed is all zeros, which never leaves the zero state"
        case .degreesDiffer(let first, let second):
            return "the two polynomials have different degrees (\(first) and \(second))"
        }
    }

    private static func digits(_ values: [UInt8]) -> String {
        values.map { $0 <= 9 ? String($0) : "(\($0))" }.joined()
    }
}
