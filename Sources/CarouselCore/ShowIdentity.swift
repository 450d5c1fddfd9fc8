/// What names an item when screens of a group compare their shows (`GroupAgreement`) and
/// seed their order: the same item on two screens must have one name, whatever address or
/// mount point each screen reaches it by, and two different items must not.
///
/// - An Immich asset: its id (`immich:ID`), whichever server address, preview or original.
///   Every Immich picture's last path component is the same (`thumbnail?size=preview`), so
///   names alone made two different albums one show.
/// - A web picture: its URL without the fragment.
/// - A file: its path below the folder (or manifest's folder) it was given by, and its size:
///   screens may mount the same pictures elsewhere (`/media/usb/photos`, `/srv/photos`), but
///   `2024/a.jpg` and `2025/a.jpg` are two pictures, and a file replaced by another of the same
///   name on one screen is another picture. The modification time is not part of it: a copy
///   made with `cp` or onto a USB stick has its own, the same picture all the same. A file
///   outside every given folder (one given by itself, a manifest's `../x.jpg`): its name and size.
public struct ShowIdentity: Sendable, Equatable {
    /// The folders paths were found below, each without a trailing slash.
    public var roots: [String]

    /// From the paths a show was given (folders, manifests, files, web addresses): a folder is
    /// a root, a manifest's folder is one, a file's own path never matches as a root of itself.
    public init(given: [String]) {
        roots = given.filter { !$0.contains("://") }.map { path in
            let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            guard trimmed.lowercased().hasSuffix(".toml") else { return trimmed }
            guard let slash = trimmed.lastIndex(of: "/") else { return "." }
            return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        }
    }

    /// The item's name in a fingerprint.
    public func of(_ source: ImageSource) -> String {
        let path = source.path
        if path.contains("://") { return Self.web(path) }
        var relative: Substring?
        for root in roots {
            let prefix = root == "/" ? "/" : root + "/"
            guard path.hasPrefix(prefix) else { continue }
            let rest = path.dropFirst(prefix.count)
            guard !rest.isEmpty else { continue }
            if relative.map({ rest.count < $0.count }) ?? true { relative = rest }
        }
        let name = relative ?? path.split(separator: "/").last ?? Substring(path)
        return source.stamp.map { "\(name) \($0.size)" } ?? String(name)
    }

    /// A web item's name: an Immich asset's id, else the URL without its fragment.
    static func web(_ path: String) -> String {
        let url = path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        if let range = url.firstRange(of: "/api/assets/") {
            let id = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" }
            if !id.isEmpty { return "immich:" + id }
        }
        return url
    }
}
