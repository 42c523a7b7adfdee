import Foundation
import UtopiaProtocol

/// The `decoder-input.csv` format (`Protocols/recordings.md` §3): one
/// ``DecoderInputRecord`` per line as `time,id,hex` (engine seconds with six
/// decimals, the message id's ASCII letter, the frame in lower-case hex)
/// under a `time,id,hex` header row. ``cells(of:)`` makes a row; the reader
/// checks every row (times never go back, the id matches the bytes, the
/// bytes are one valid Utopia message) and names file and line when one is
/// bad; a last line cut off by a crash (no final line break, not a whole
/// row) is ignored.
///
/// ```swift
/// let url = folder.appendingPathComponent(DecoderInputFile.name)
/// let records = try DecoderInputFile.read(from: url)
/// let redecoded = Redecoder().run(records)
/// ```
public enum DecoderInputFile {
    /// The file's name in a recording folder.
    public static let name = "decoder-input.csv"

    /// The header row's cells: `time`, `id`, `hex`.
    public static let header = ["time", "id", "hex"]

    /// The row of `record`: time with six decimals, the id letter, lower-case hex.
    public static func cells(of record: DecoderInputRecord) -> [String] {
        [String(format: "%.6f", record.time), String(UnicodeScalar(record.messageID)), Hex.string(record.bytes)]
    }

    /// Reads every record of the file at `url`.
    public static func read(from url: URL) throws(DecoderInputFileError) -> [DecoderInputRecord] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        return try records(in: String(decoding: data, as: UTF8.self), file: url.path)
    }

    /// The records in `text`, a whole file; `file` names it in errors.
    public static func records(in text: String, file: String) throws(DecoderInputFileError) -> [DecoderInputRecord] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cutOff = lines.last.map { !$0.isEmpty } ?? false     // no final line break: the last line may be cut off
        if !cutOff { lines.removeLast() }
        var records: [DecoderInputRecord] = []
        for (index, raw) in lines.enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let isLast = index == lines.count - 1
            if index == 0 {
                if line == header.joined(separator: ",") { continue }
                if isLast && cutOff && header.joined(separator: ",").hasPrefix(line) { break }
                throw .badRow(path: file, line: 1, reason: "expected the header row 'time,id,hex', got '\(line.prefix(60))'")
            }
            do throws(RowProblem) {
                let record = try self.record(of: line)
                if let previous = records.last, record.time < previous.time {
                    throw RowProblem(String(format: "time goes back: %.6f after %.6f", record.time, previous.time))
                }
                records.append(record)
            } catch {
                if isLast && cutOff { break }
                throw .badRow(path: file, line: index + 1, reason: error.reason)
            }
        }
        return records
    }

    /// Why one row is not a record.
    private struct RowProblem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func record(of line: Substring) throws(RowProblem) -> DecoderInputRecord {
        if line.isEmpty { throw RowProblem("empty line") }
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 3 else { throw RowProblem("expected 3 cells (time,id,hex), got \(cells.count)") }
        guard let time = Double(cells[0]), time.isFinite else { throw RowProblem("time: '\(cells[0].prefix(40))' is not a number of seconds") }
        guard cells[1].utf8.count == 1, let id = cells[1].utf8.first, UtopiaMessageType(rawValue: id) != nil else {
            throw RowProblem("id: '\(cells[1].prefix(20))' is not a Utopia message letter")
        }
        guard let bytes = Hex.bytes(cells[2].utf8) else {
            throw RowProblem("hex: '\(cells[2].prefix(40))' is not lower-case hex with an even number of digits")
        }
        guard bytes.first == id else {
            throw RowProblem("id: '\(cells[1])' but the bytes hold message id 0x\(Hex.string(Array(bytes.prefix(1))))")
        }
        switch UtopiaCodec.decodeResult(frame: bytes) {
        case .failure(let error): throw RowProblem("hex: not a Utopia message: \(error)")
        case .success(let messages) where messages.count != 1:
            throw RowProblem("hex: \(messages.count) Utopia messages, expected one")
        case .success: return DecoderInputRecord(time: time, bytes: bytes)
        }
    }

}
