import Foundation

/// A codebook in the MindAffect text format: `#` comment lines, one row of
/// stimulus times in milliseconds, then one row of states per code, cells
/// separated by tabs or spaces (see Protocols/codebook.md).
public struct CodebookFile: Hashable, Sendable {
    /// The codes.
    public let codebook: Codebook
    /// One time in milliseconds per state (when each state is shown; informational).
    public let stimulusTimes: [Double]
    /// Free comment lines, without the leading `#` (and one space after it); the
    /// `#stimTime` / `#stimSeq` dimension lines are not kept.
    public let comments: [String]

    /// A file for `codebook` with stimulus times `round(i · 1000 / stimulusRate)` ms,
    /// like the SDK's 60 Hz codebooks (0, 17, 33, 50, …). `stimulusRate` must be positive.
    public init(codebook: Codebook, stimulusRate: Double = 60, comments: [String] = []) {
        precondition(stimulusRate > 0 && stimulusRate.isFinite, "the stimulus rate must be positive")
        self.codebook = codebook
        self.stimulusTimes = (0..<codebook.length).map { (Double($0) * 1000 / stimulusRate).rounded() }
        self.comments = comments
    }

    /// A file for `codebook` with the given stimulus times (one per state).
    public init(codebook: Codebook, stimulusTimes: [Double], comments: [String] = []) throws(CodebookError) {
        guard stimulusTimes.count == codebook.length else {
            throw CodebookError(.stimulusTimeCount(expected: codebook.length, found: stimulusTimes.count))
        }
        self.codebook = codebook
        self.stimulusTimes = stimulusTimes
        self.comments = comments
    }

    /// Parses the text of a codebook file; `name` is used in errors.
    public init(parsing text: String, name: String? = nil) throws(CodebookError) {
        let reader = try CodebookTextReader(text: text, file: name)
        self.codebook = Codebook(validatedCodes: reader.codes)
        self.stimulusTimes = reader.times
        self.comments = reader.comments
    }

    /// Reads and parses the file at `path`; errors name `path`.
    public init(contentsOfFile path: String) throws(CodebookError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CodebookError(.fileNotFound, file: path)
        }
        guard !isDirectory.boolValue else { throw CodebookError(.unreadableFile("it is a directory"), file: path) }
        let data: Data
        do {
            // A FileHandle also reads pipes and other non-regular files.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw CodebookError(.unreadableFile(Self.reason(error)), file: path)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CodebookError(.notText, file: path) }
        try self.init(parsing: text, name: path)
    }

    /// The file's text: comments, `#stimTime: (1,L)`, the tab-separated times,
    /// two blank lines, `#stimSeq : (N,L)`, then one tab-separated row per code.
    public var text: String {
        var lines = comments.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "# \($0)" }
        lines.append("#stimTime: (1,\(stimulusTimes.count))")
        lines.append(stimulusTimes.map(CodebookError.format).joined(separator: "\t"))
        lines += ["", ""]
        lines.append("#stimSeq : (\(codebook.count),\(codebook.length))")
        lines += codebook.codes.map { code in code.map(String.init).joined(separator: "\t") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes ``text`` to `path` atomically; errors name `path`.
    public func write(toFile path: String) throws(CodebookError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CodebookError(.unwritableFile("no such folder: \(folder)"), file: path)
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CodebookError(.unwritableFile("it is a directory"), file: path)
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CodebookError(.unwritableFile(Self.reason(error)), file: path)
        }
    }

    private static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let message = strerror(Int32(underlying.code)) {
            return String(cString: message)
        }
        return error.localizedDescription
    }
}
