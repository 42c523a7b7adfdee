import Foundation
import NoiseTagging

/// The codebook the frame benchmark flickers: modulated Gold codes of a
/// degree-9 preferred pair, 513 codes of 1022 states, enough for 255 controls.
///
/// The pair is 1 + x⁴ + x⁹ and 1 + x³ + x⁴ + x⁶ + x⁹ (pyntbci tap convention):
/// their cyclic cross-correlation takes only the values −33, −1 and 31 (of
/// 511), as a preferred pair must. `noisetag codes generate --kind mgold
/// --poly 000100001,001101001` writes the same book.
enum BenchCodebook {
    /// 1 + x⁴ + x⁹.
    static let taps1: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 0, 1]
    /// 1 + x³ + x⁴ + x⁶ + x⁹.
    static let taps2: [UInt8] = [0, 0, 1, 1, 0, 1, 0, 0, 1]

    /// The polynomials as `--poly` takes them.
    static var polyArgument: String {
        [taps1, taps2].map { $0.map(String.init).joined() }.joined(separator: ",")
    }

    /// The 513 modulated Gold codes.
    static func make() throws -> Codebook {
        try GoldCodes.make(taps1: taps1, taps2: taps2, includingMSequences: true).modulated()
    }

    /// Writes the codebook to a new file in the temporary folder and returns its path.
    static func writeTemporaryFile() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("noisetag-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max)).txt").path
        let book = try make()
        let comments = ["noisetag bench frames: modulated Gold codes, --poly \(polyArgument)",
                        "\(book.count) codes of \(book.length) states"]
        try CodebookFile(codebook: book, comments: comments).write(toFile: path)
        return path
    }
}
