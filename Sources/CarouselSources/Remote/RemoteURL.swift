import CarouselMedia
import CarouselCore
import Foundation

/// Sources on web servers: which sources are URLs, the placeholders a URL may carry so one
/// server gives each screen its own show, and a manifest's picture paths resolved against
/// the manifest's own URL. Only http and https: anything else a manifest names is refused.
public enum RemoteURL {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Whether `source` names a picture, a manifest or a WebDAV folder on a web server.
    public static func isRemote(_ source: String) -> Bool { ImageSource.isRemote(source) }

    /// `template` with `{hostname}` and `{machine-id}` replaced (escaped for a URL path);
    /// any other `{…}` is a mistake, said with the URL.
    public static func expand(_ template: String, hostname: String, machineID: String?) throws(Problem) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw Problem(description: "\(template): a '{' without its '}'")
            }
            let name = rest[rest.index(after: open)..<close]
            switch name {
            case "hostname": out += escaped(hostname)
            case "machine-id":
                guard let machineID, !machineID.isEmpty else {
                    throw Problem(description: "\(template): {machine-id} is not known on this machine (/etc/machine-id)")
                }
                out += escaped(machineID)
            default:
                throw Problem(description: "\(template): unknown placeholder {\(name)} (use {hostname} or {machine-id})")
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// A manifest's `path` as an absolute URL: itself if it is one, else relative to the
    /// manifest's URL (`a.jpg`, `../b.jpg`, `/c.jpg`); nil for any other scheme (file:,
    /// ftp:, data:…) or what is not a URL at all.
    public static func resolve(_ reference: String, against manifest: String) -> String? {
        guard let base = URL(string: manifest), isRemote(manifest),
              let url = URL(string: reference, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url.absoluteString
    }

    /// This machine's name and id, as the placeholders use them.
    public static var hostname: String { ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "" }
    public static var machineID: String? {
        (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func escaped(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? s
    }
}
