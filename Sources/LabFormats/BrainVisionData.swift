/// The samples of a BrainVision data file, binary or ASCII, multiplexed
/// (sample by sample) or vectorized (channel by channel), each value
/// multiplied by its channel's scale (resolution × unit to µV).
enum BrainVisionData {
    /// Channels × samples from a `DataFormat=BINARY` file's bytes. A header's
    /// `DataPoints` (samples per channel) is checked against them: a
    /// vectorized file holding fewer is refused (each channel's block would
    /// start in the wrong place), a multiplexed one is read with a warning.
    static func binary(_ bytes: [UInt8], header: BrainVisionHeader, scales: [Double], vectorized: Bool,
                       dataPoints: Int?, name: String, warnings: inout [String]) throws -> [[Float]] {
        let format = (header.value("Binary Infos", "BinaryFormat") ?? "INT_16").uppercased()
        let size: Int
        switch format {
        case "INT_16", "UINT_16": size = 2
        case "INT_32", "IEEE_FLOAT_32": size = 4
        case "IEEE_FLOAT_64": size = 8
        default: throw LabFormatError(name, "BinaryFormat=\(format) is not supported (INT_16, UINT_16, INT_32, IEEE_FLOAT_32, IEEE_FLOAT_64)")
        }
        let bigEndian = header.value("Binary Infos", "UseBigEndianOrder")?.uppercased() == "YES"
        let channels = scales.count
        let frame = size * channels
        var n = bytes.count / frame
        guard n > 0 else { throw LabFormatError(name, "holds no complete sample (\(bytes.count) bytes, \(frame) per sample of \(channels) channels)") }
        if let points = dataPoints, points != n {
            let held = "holds \(n) samples of \(channels) channels (\(bytes.count) bytes of \(format)), the header's DataPoints says \(points)"
            if n < points, vectorized {
                throw LabFormatError(name, "\(held): cut short, and a VECTORIZED file cut short cannot be read (every channel's block after the first would start in the wrong place)")
            }
            // Vectorized, each channel's block is DataPoints long; multiplexed, every whole sample is read.
            let said = n < points ? "cut short? the \(n) read" : vectorized ? "the first \(points) of each channel's block read, the rest ignored" : "all \(n) read"
            if vectorized { n = points }
            warnings.append("\(name): \(held): \(said)")
        } else if bytes.count % frame != 0 {
            warnings.append("\(name): \(bytes.count % frame) bytes after the last whole sample ignored (\(format), \(channels) channels)")
        }
        func word(_ offset: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<size { v |= UInt64(bytes[offset + (bigEndian ? size - 1 - k : k)]) << (8 * k) }
            return v
        }
        func value(_ offset: Int) -> Double {
            let w = word(offset)
            switch format {
            case "INT_16": return Double(Int16(truncatingIfNeeded: w))
            case "UINT_16": return Double(UInt16(truncatingIfNeeded: w))
            case "INT_32": return Double(Int32(truncatingIfNeeded: w))
            case "IEEE_FLOAT_32": return Double(Float(bitPattern: UInt32(truncatingIfNeeded: w)))
            default: return Double(bitPattern: w)
            }
        }
        return (0..<channels).map { c in
            let scale = scales[c]
            return (0..<n).map { i in Float(value((vectorized ? c * n + i : i * channels + c) * size) * scale) }
        }
    }

    /// Channels × samples from a `DataFormat=ASCII` file's text: values
    /// separated by spaces, tabs or semicolons (and commas when the decimal
    /// symbol is "."), after `SkipLines` lines and `SkipColumns` columns.
    static func ascii(_ text: String, header: BrainVisionHeader, scales: [Double], vectorized: Bool, name: String) throws -> [[Float]] {
        let decimal = header.value("ASCII Infos", "DecimalSymbol") ?? "."
        let skipLines = header.value("ASCII Infos", "SkipLines").flatMap { HeaderText.integer($0) } ?? 0
        let skipColumns = header.value("ASCII Infos", "SkipColumns").flatMap { HeaderText.integer($0) } ?? 0
        let separators: Set<Character> = decimal == "." ? [" ", "\t", ";", ","] : [" ", "\t", ";"]
        let lines = HeaderText.lines(text).enumerated().dropFirst(max(skipLines, 0))
            .filter { !HeaderText.trimmed($0.element).isEmpty }
        let channels = scales.count
        var rows: [[Double]] = []
        for (index, line) in lines {
            let fields = line.split(whereSeparator: { separators.contains($0) }).dropFirst(max(skipColumns, 0))
            let row = try fields.map { field -> Double in
                let t = decimal == "." ? String(field) : field.replacingOccurrences(of: decimal, with: ".")
                guard let v = Double(t) else { throw LabFormatError(name, "line \(index + 1): \"\(field.prefix(30))\" is not a number") }
                return v
            }
            if !vectorized && row.count != channels {
                throw LabFormatError(name, "line \(index + 1) holds \(row.count) values, expected \(channels) (one per channel)")
            }
            rows.append(row)
        }
        if vectorized {
            guard rows.count == channels else { throw LabFormatError(name, "holds \(rows.count) lines of values, expected \(channels) (one per channel)") }
            guard let n = rows.first?.count, n > 0, rows.allSatisfy({ $0.count == n }) else {
                throw LabFormatError(name, "its channel lines differ in length or are empty")
            }
            return rows.enumerated().map { c, row in row.map { Float($0 * scales[c]) } }
        }
        guard !rows.isEmpty else { throw LabFormatError(name, "holds no samples") }
        return (0..<channels).map { c in rows.map { Float($0[c] * scales[c]) } }
    }
}
