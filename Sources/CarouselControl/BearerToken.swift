import Foundation
import NIOConcurrencyHelpers

/// `--control-token-file`: the bearer token requests must carry, read at start and again on
/// SIGHUP, compared in constant time.
public final class BearerToken: Sendable {
    public let path: String
    private let token = NIOLockedValueBox<[UInt8]>([])

    /// Reads the file now; throws a one-line reason when it cannot be used.
    public init(path: String) throws(ControlRefusal) {
        self.path = path
        try reload()
    }

    /// Reads the file again; on a problem the token in use stays.
    public func reload() throws(ControlRefusal) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ControlRefusal(0, "--control-token-file \(path): cannot be read")
        }
        guard data.count <= 4096, let text = String(data: data, encoding: .utf8) else {
            throw ControlRefusal(0, "--control-token-file \(path): not a token (a line of text up to 4 KB)")
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard value.utf8.count >= 16, !value.contains(where: \.isWhitespace) else {
            throw ControlRefusal(0, "--control-token-file \(path): the token must be at least 16 characters without spaces")
        }
        token.withLockedValue { $0 = Array(value.utf8) }
    }

    /// Whether an `Authorization` header's value is `Bearer <the token>`, in time that does
    /// not depend on where they differ.
    public func accepts(authorization: String?) -> Bool {
        let expected = token.withLockedValue { $0 }
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return Self.constantTimeEqual(Array(authorization.utf8.dropFirst(7)), expected)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<b.count { difference |= (i < a.count ? a[i] : 0) ^ b[i] }
        return difference == 0 && !b.isEmpty
    }
}
