import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files an importer cannot read as a file: a pipe (`<(zcat x.gz)`, a FIFO,
/// standard input), a device or a socket. Opening a FIFO with no writer
/// waits for ever, and the importers read their file more than once.
enum SpecialFile {
    /// What the file at `path` is when it is no regular file or folder ("a
    /// pipe", "a device", "a socket"), following links; nil otherwise.
    static func kind(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "a pipe"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return nil
        }
    }

    /// Throws when `url` is a pipe, a device or a socket, naming it.
    static func refuse(_ url: URL) throws {
        guard let kind = kind(at: url.path) else { return }
        throw LabFormatError(url.path, "\(kind), not a regular file: save it to a file first and give that")
    }
}
