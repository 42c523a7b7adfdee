import Foundation
import ZIPFoundation

/// One gzip member (RFC 1952) around ZIPFoundation's raw deflate: a 10-byte
/// header (no name, no time, OS "unknown"), the deflate stream, then the
/// CRC-32 and the length modulo 2³², both little-endian. Python's `gzip`,
/// `zcat` and pandas read it.
public enum Gzip {
    /// `data` as one gzip member.
    public static func compress(_ data: Data) throws -> Data {
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        let input = data
        let crc = try Data.compress(size: Int64(input.count), bufferSize: 1 << 16, provider: { position, size in
            let start = input.startIndex + Int(position)
            return input.subdata(in: start..<min(start + size, input.endIndex))
        }, consumer: { out.append($0) })
        for value in [crc, UInt32(truncatingIfNeeded: input.count)] {
            out.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        return out
    }

    /// The bytes of the single gzip member `data`; errors name `name`.
    public static func decompress(_ data: Data, name: String) throws -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B else { throw LabFormatError(name, "not gzip-compressed") }
        guard bytes[2] == 8 else { throw LabFormatError(name, "gzip compression method \(bytes[2]) is not deflate") }
        let flags = bytes[3]
        var offset = 10
        func skipString() { while offset < bytes.count, bytes[offset] != 0 { offset += 1 }; offset += 1 }
        if flags & 0x04 != 0, offset + 2 <= bytes.count { offset += 2 + Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        if flags & 0x08 != 0 { skipString() }
        if flags & 0x10 != 0 { skipString() }
        if flags & 0x02 != 0 { offset += 2 }
        guard offset < bytes.count - 8 else { throw LabFormatError(name, "gzip header runs past the end of the file") }
        let (out, crc) = try inflate(Data(bytes[offset..<(bytes.count - 8)]), name: name, stream: "gzip")
        let trailer = bytes.suffix(8).map(UInt32.init)
        let storedCRC = trailer[0] | trailer[1] << 8 | trailer[2] << 16 | trailer[3] << 24
        let storedSize = trailer[4] | trailer[5] << 8 | trailer[6] << 16 | trailer[7] << 24
        guard storedCRC == crc, storedSize == UInt32(truncatingIfNeeded: out.count) else {
            throw LabFormatError(name, "gzip checksum or length does not match its content (one member expected)")
        }
        return out
    }

    /// A raw deflate stream (RFC 1951) inflated, with the CRC-32 of the
    /// result; errors name `name` and the `stream` ("gzip", "zlib").
    static func inflate(_ body: Data, name: String, stream: String) throws -> (Data, UInt32) {
        var out = Data()
        let crc: UInt32
        do {
            crc = try Data.decompress(size: Int64(body.count), bufferSize: 1 << 16, skipCRC32: false, provider: { position, size in
                guard position < body.count else { throw LabFormatError(name, "the \(stream) stream is cut short") }
                return body.subdata(in: Int(position)..<min(Int(position) + size, body.count))
            }, consumer: { out.append($0) })
        } catch let error as LabFormatError {
            throw error
        } catch {
            throw LabFormatError(name, "the \(stream) stream is corrupt")
        }
        return (out, crc)
    }
}
