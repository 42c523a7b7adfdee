import Foundation

/// Why a file or folder the user named could not be made or written, in
/// words fit for an error line: what on its path stands in the way (a file
/// where a folder must be, a read-only file system, a folder it may not
/// write), else the system's reason without Foundation's error domains.
public enum FileProblem {
    /// Why `url` could not be created or written, after `error`; with
    /// `folder`, `url` was to be a folder (so a file there is the reason).
    public static func whyNotWritten(_ url: URL, _ error: any Error, folder: Bool = false) -> String {
        var path = url
        while path.path != "/", !path.path.isEmpty {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) {
                if !isFolder.boolValue, path != url || folder { return "\(path.path) is a file, not a folder" }
                if isOnReadOnlyFileSystem(path.path) { return "\(path.path) is on a read-only file system" }
                if !FileManager.default.isWritableFile(atPath: path.path) { return "\(path.path): permission denied" }
                break
            }
            path.deleteLastPathComponent()
        }
        // The nearest folder that exists is writable: the one below it is missing.
        let parent = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: parent.path) { return "no folder \(parent.path)" }
        return systemReason(error)
    }

    /// The POSIX reason under a Foundation error (`No space left on device`),
    /// or its description.
    public static func systemReason(_ error: any Error) -> String {
        var current: NSError? = error as NSError
        while let e = current {
            if e.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(e.code))) }
            current = e.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return (error as NSError).localizedDescription
    }

    private static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }
}
