import Foundation

/// Finds the images to show in the files and folders given on the command line.
/// Reads names only: scanning decodes nothing.
public struct SourceScanner: Sendable {
    /// Extensions SDL_image decodes, lower case.
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "webp", "gif", "bmp", "tga", "tif", "tiff", "pnm", "ppm", "pgm", "qoi",
    ]

    /// A source path that does not exist or cannot be read.
    public struct MissingSource: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path): no such file or folder" }
    }

    public init() {}

    /// Every image in `paths`: files as given, folders' images in natural name order.
    /// Hidden files and files of other types are skipped; `skipped` hears about the latter.
    public func scan(_ paths: [String], skipped: (String) -> Void = { _ in }) throws -> [ImageSource] {
        let fm = FileManager.default
        var found: [ImageSource] = []
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { throw MissingSource(path: path) }
            if isDir.boolValue {
                let names = (try? fm.contentsOfDirectory(atPath: path)) ?? []
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                for name in names.sorted(by: NaturalOrder.less) where !name.hasPrefix(".") {
                    let full = base + "/" + name
                    var sub: ObjCBool = false
                    guard fm.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue else { continue }
                    if Self.isImage(name) { found.append(ImageSource(path: full)) } else { skipped(full) }
                }
            } else {
                found.append(ImageSource(path: path))
            }
        }
        return found
    }

    public static func isImage(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
