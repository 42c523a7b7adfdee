import ArgumentParser
import Decoding
import Foundation
import IOThreads
import NoiseTagging

/// `noisetag codes generate`: writes an m-sequence or Gold codebook in the
/// MindAffect text format, with pyntbci 1.9.0's polynomial and seed conventions.
struct CodesGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a codebook (m-sequence shifts, Gold or modulated Gold codes).",
        discussion: """
            BITS are feedback taps as in pyntbci: 100001 is 1 + x + x^6 (tap i multiplies \
            the bit output i+1 steps earlier); a seed is the initial register, newest cell \
            first (default all ones). mseq: --count N gives N cyclic shifts of the \
            m-sequence, spaced length/N apart (default 1). gold, mgold: pyntbci's 2^n-1 \
            Gold codes followed by the two m-sequences (2^n+1 codes; default pair \
            100001,110011 gives 65 codes of 63 bits; mgold modulates them to 126). \
            --count N keeps the first N. The default mgold book is the engine's built-in one.
            """
    )

    @Option(help: "Kind of codebook.")
    var kind: CodeKind

    @Option(help: ArgumentHelp("Feedback polynomial(s); two, comma separated, for gold and mgold (default: 100001; 100001,110011).",
                               valueName: "BITS"))
    var poly: String?

    @Option(help: ArgumentHelp("Initial register(s); two, comma separated, for gold and mgold (default all ones).",
                               valueName: "BITS"))
    var seed: String?

    @Option(parsing: .unconditional, help: "Number of codes (mseq: shifts, default 1; gold, mgold: first N, default all).")
    var count: Int?

    @Option(parsing: .unconditional, help: "Stimulus rate in Hz for the file's stimulus-time row.")
    var rate: Double = 60

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var out: String?

    func validate() throws {
        _ = try polynomials()
        _ = try seeds()
        if let count, count < 1 { throw ValidationError("--count: must be at least 1, got \(count)") }
        guard (0.1...10_000).contains(rate) else { throw ValidationError("--rate: must be 0.1...10000 Hz (bits per second), got \(rate)") }
        _ = try generate() // reports bad polynomials, seeds and counts with the usage line
    }

    func run() throws {
        let codebook = try generate()
        for taps in try polynomials() where !MSequence.isMaximalLength(taps: taps) {
            FileHandle.standardError.writeIfOpen(Data(
                "warning: --poly \(Self.digits(taps)) is not primitive: its sequence is not an m-sequence\n".utf8))
        }
        let comments = ["noisetag codes generate --kind \(kind.rawValue) --poly \(try polynomials().map(Self.digits).joined(separator: ","))"
                            + (seed.map { " --seed \($0)" } ?? ""),
                        "\(CountText.format(codebook.count, "code")) of \(codebook.length) states"]
        let file = CodebookFile(codebook: codebook, stimulusRate: rate, comments: comments)
        if let out {
            try file.write(toFile: out)
        } else {
            print(file.text, terminator: "")
        }
    }

    private func generate() throws -> Codebook {
        let taps = try polynomials(), seeds = try seeds()
        do {
            switch kind {
            case .mseq:
                let bits = try MSequence.make(taps: taps[0], seed: seeds?[0])
                let n = count ?? 1
                guard n <= bits.count else {
                    throw ValidationError("--count: an m-sequence of length \(bits.count) has at most \(bits.count) shifts, got \(n)")
                }
                let book = try Codebook(codes: Array(repeating: bits, count: n))
                return book.cyclicallyShifted(by: (0..<n).map { $0 * (bits.count / n) })
            case .gold, .mgold:
                var book = try GoldCodes.make(taps1: taps[0], taps2: taps[1], seed1: seeds?[0], seed2: seeds?[1],
                                              includingMSequences: true)
                if kind == .mgold { book = book.modulated() }
                let n = count ?? book.count
                guard n <= book.count, let subset = book.prefix(n) else {
                    throw ValidationError("--count: polynomials of degree \(taps[0].count) give at most \(book.count) codes, got \(n)")
                }
                return subset
            }
        } catch let error as CodeGenerationError {
            switch error {
            case .seedLengthMismatch, .nonBinarySeed, .zeroSeed: throw ValidationError("--seed: \(error)")
            default: throw ValidationError("--poly: \(error)")
            }
        }
    }

    private var listSize: Int { kind == .mseq ? 1 : 2 }

    private func polynomials() throws -> [[UInt8]] {
        let fallback = kind == .mseq ? [MSequence.defaultTaps] : [GoldCodes.defaultTaps1, GoldCodes.defaultTaps2]
        return try poly.map { try Self.bitLists($0, flag: "--poly", size: listSize) } ?? fallback
    }

    private func seeds() throws -> [[UInt8]]? {
        try seed.map { try Self.bitLists($0, flag: "--seed", size: listSize) }
    }

    /// Parses `size` comma-separated strings of 0 and 1.
    private static func bitLists(_ text: String, flag: String, size: Int) throws -> [[UInt8]] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == size else {
            let wanted = size == 1 ? "one bit string, e.g. 100001" : "two bit strings separated by a comma, e.g. 100001,110011"
            throw ValidationError("\(flag): expected \(wanted), got \"\(text)\"")
        }
        return try parts.map { part in
            guard !part.isEmpty, part.allSatisfy({ $0 == "0" || $0 == "1" }) else {
                throw ValidationError("\(flag): \"\(part)\" is not a bit string (use only 0 and 1, e.g. 100001)")
            }
            return part.map { $0 == "1" ? 1 : 0 }
        }
    }

    private static func digits(_ bits: [UInt8]) -> String { bits.map(String.init).joined() }
}
