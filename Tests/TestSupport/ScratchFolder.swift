import Foundation
import Synchronization

/// Fresh folders for the files a test writes, all inside one folder per
/// test process that is removed when the process exits: a run of the
/// suites leaves nothing behind in the system's temporary directory.
public enum ScratchFolder {
    /// The process's folder, made on first use, and whether its removal at exit is registered.
    private static let root = Mutex<URL?>(nil)

    /// A new, empty folder named after `prefix` inside the process's scratch folder.
    public static func make(_ prefix: String = "scratch") throws -> URL {
        let parent = root.withLock { root -> URL in
            if let root { return root }
            let made = FileManager.default.temporaryDirectory
                .appendingPathComponent("noisetag-scratch-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
            root = made
            atexit { ScratchFolder.removeAll() }
            return made
        }
        let folder = parent.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A path for a file named `name` in a new scratch folder (the file is not created).
    public static func file(_ name: String) throws -> URL {
        try make().appendingPathComponent(name)
    }

    /// Removes the process's folder and everything in it.
    static func removeAll() {
        guard let folder = root.withLock({ $0 }) else { return }
        try? FileManager.default.removeItem(at: folder)
    }
}
