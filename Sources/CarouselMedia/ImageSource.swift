/// One image the carousel can show: where it comes from and how to name it on screen.
public struct ImageSource: Hashable, Sendable {
    /// The file's path as given or found.
    public var path: String
    /// A human name: the manifest's title, else the file name without its extension.
    public var title: String
    /// A longer line from the manifest, if any.
    public var caption: String?

    public init(path: String, title: String? = nil, caption: String? = nil) {
        self.path = path
        self.title = title ?? ImageSource.defaultTitle(for: path)
        self.caption = caption
    }

    /// The file name without folder and extension: `/a/b/Sunset.jpg` → `Sunset`.
    public static func defaultTitle(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
