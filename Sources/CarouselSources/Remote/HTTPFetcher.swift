import CarouselMedia
import CCurl
import Foundation
import Glibc
import CarouselClock

/// One HTTP(S) download into a file, with every limit a kiosk needs from a server it does
/// not control: a connect timeout, an idle timeout (no byte for that long ends it), a total
/// deadline, at most 5 redirects, http and https only (a hostile manifest cannot point at
/// file:// or anything else), a size cap that cuts the server off, and TLS verified against
/// the system's CA store or `caFile`. Conditional requests: an ETag or Last-Modified from
/// an earlier download turns an unchanged file into a 304. Blocking: call it from a
/// download thread, never from the render thread. libcurl, through CCurl.
public enum HTTPFetcher {
    public struct Request: Sendable {
        public var url: String
        /// Validators from the last complete download of this URL.
        public var etag: String?
        public var lastModified: String?
        /// Bytes accepted at most; a larger body (announced or sent) fails the download.
        public var maxBytes: Int64 = 64 << 20
        public var connectTimeout: Double = 10
        /// Seconds without a byte after which the download fails.
        public var idleTimeout: Double = 20
        /// Seconds the whole download may take.
        public var totalTimeout: Double = 300
        /// A PEM file of CAs to trust instead of the system's (`--ca-file`).
        public var caFile: String?
        /// Headers sent besides (an API's key). A request carrying any follows no redirect:
        /// libcurl would send them on to whatever host it is pointed at.
        public var headers: [String] = []
        /// A body, sent with POST (or `method`); nil: GET.
        public var body: String?
        /// Its type.
        public var bodyType = "application/json"
        /// Another method than GET or POST (a WebDAV server's `PROPFIND`).
        public var method: String?
        /// Where the login comes from: none, or a netrc file (`nil`: ~/.netrc), whose entry
        /// for the request's host libcurl sends (HTTP Basic; over https on any network but a
        /// trusted one). Never sent on to another host after a redirect.
        public var login: Login = .none

        public enum Login: Sendable, Equatable {
            case none
            case netrc(file: String?)
        }

        public init(url: String) { self.url = url }
    }

    public enum Outcome: Equatable, Sendable {
        /// The body is complete in the file; its validators for the next request.
        case fetched(status: Int, bytes: Int64, etag: String?, lastModified: String?)
        /// 304: what was downloaded last time is still current; the file is untouched.
        case notModified
        /// Nothing usable: why, in a few words (an HTTP status, a timeout, a TLS failure…).
        case failed(reason: String)
    }

    /// The redirects followed at most.
    public static let maxRedirects = 5

    /// Downloads `request.url` into `file` (created or truncated, mode 0600). On anything
    /// but `.fetched` the file's content is not to be used; the caller removes it.
    public static func fetch(_ request: Request, into file: String) -> Outcome {
        let outcome = perform(request, into: file)
        MediaCounters.count {
            switch outcome {
            case .fetched(_, let bytes, _, _): $0.downloads += 1; $0.downloadBytes += Int(bytes)
            case .notModified: $0.downloadsUnchanged += 1
            case .failed: $0.downloadFailures += 1
            }
        }
        return outcome
    }

    private static func perform(_ request: Request, into file: String) -> Outcome {
        globalInit
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failed(reason: "cannot write \(file) (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        guard let curl = curl_easy_init() else { return .failed(reason: "cannot start a download") }
        defer { curl_easy_cleanup(curl) }

        let transfer = Transfer(fd: fd, limit: request.maxBytes, idleTimeout: request.idleTimeout)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        if let etag = request.etag { headers = curl_slist_append(headers, "If-None-Match: \(etag)") }
        if let date = request.lastModified { headers = curl_slist_append(headers, "If-Modified-Since: \(date)") }
        for header in request.headers { headers = curl_slist_append(headers, header) }
        if request.body != nil { headers = curl_slist_append(headers, "Content-Type: \(request.bodyType)") }
        defer { curl_slist_free_all(headers) }

        _ = kc_curl_string(curl, CURLOPT_URL, request.url)
        _ = kc_curl_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = kc_curl_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = kc_curl_long(curl, CURLOPT_FOLLOWLOCATION, request.headers.isEmpty ? 1 : 0)
        if let body = request.body { _ = kc_curl_string(curl, CURLOPT_COPYPOSTFIELDS, body) }
        if let method = request.method { _ = kc_curl_string(curl, CURLOPT_CUSTOMREQUEST, method) }
        if case .netrc(let file) = request.login {
            _ = kc_curl_long(curl, CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
            if let file { _ = kc_curl_string(curl, CURLOPT_NETRC_FILE, file) }
            // Basic, sent with the request (allowing Digest too would cost every request a
            // second one: libcurl asks first without a login to learn which the server wants).
            _ = kc_curl_long(curl, CURLOPT_HTTPAUTH, 1)
        }
        _ = kc_curl_long(curl, CURLOPT_MAXREDIRS, maxRedirects)
        _ = kc_curl_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = kc_curl_long(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout))
        _ = kc_curl_long(curl, CURLOPT_TIMEOUT_MS, milliseconds(request.totalTimeout))
        // The idle timeout is ours: libcurl's low-speed limit does not count the wait for a
        // server that accepts the connection and never answers. Checked about once a second.
        _ = kc_curl_long(curl, CURLOPT_NOPROGRESS, 0)
        _ = kc_curl_progress(curl) { context, _, received, _, _ in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().progress(Int64(received)) ? 0 : 1
        }
        _ = kc_curl_pointer(curl, CURLOPT_XFERINFODATA, context)
        _ = kc_curl_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))
        _ = kc_curl_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        _ = kc_curl_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        if let ca = request.caFile { _ = kc_curl_string(curl, CURLOPT_CAINFO, ca) }
        _ = kc_curl_string(curl, CURLOPT_USERAGENT, "KioskCarousel")
        if headers != nil { _ = kc_curl_list(curl, CURLOPT_HTTPHEADER, headers) }
        _ = kc_curl_callback(curl, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.write(data!, size * count)
        }
        _ = kc_curl_pointer(curl, CURLOPT_WRITEDATA, context)
        _ = kc_curl_callback(curl, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            transfer.header(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        _ = kc_curl_pointer(curl, CURLOPT_HEADERDATA, context)

        let code = curl_easy_perform(curl)
        let status = kc_curl_info_long(curl, CURLINFO_RESPONSE_CODE)
        if transfer.overLimit || code == CURLE_FILESIZE_EXCEEDED {
            return .failed(reason: "larger than \(request.maxBytes / (1 << 20)) MB, cut off")
        }
        if transfer.writeFailed { return .failed(reason: "cannot write \(file)") }
        if transfer.idle {
            return .failed(reason: "nothing received for \(Int(request.idleTimeout.rounded())) s, timed out")
        }
        guard code == CURLE_OK else {
            if code == CURLE_TOO_MANY_REDIRECTS { return .failed(reason: "more than \(maxRedirects) redirects") }
            if code == CURLE_OPERATION_TIMEDOUT {
                return .failed(reason: "not done within \(Int(request.totalTimeout.rounded())) s, timed out")
            }
            return .failed(reason: String(cString: curl_easy_strerror(code)))
        }
        switch status {
        case 304: return .notModified
        case 200..<300:
            if let expected = transfer.headers.contentLength, expected != transfer.written {
                return .failed(reason: "ended after \(transfer.written) of \(expected) bytes")
            }
            return .fetched(status: status, bytes: transfer.written, etag: transfer.headers.etag, lastModified: transfer.headers.lastModified)
        default:
            return .failed(reason: "HTTP \(status)")
        }
    }

    private static func milliseconds(_ seconds: Double) -> Int { max(1, Int((seconds * 1000).rounded())) }

    /// curl_global_init, once, before any thread makes a handle.
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// What one transfer has received: bytes written to the file and the final response's
    /// headers (those of a redirect are forgotten at the next status line).
    private final class Transfer {
        let fd: Int32
        let limit: Int64
        var written: Int64 = 0
        var overLimit = false
        var writeFailed = false
        var headers = ResponseHeaders()
        let idleTimeout: Double
        /// Bytes received at the last progress check, and when they last grew.
        private var lastReceived: Int64 = 0
        private var lastGrowth = SystemClock.monotonic
        private(set) var idle = false

        init(fd: Int32, limit: Int64, idleTimeout: Double) {
            self.fd = fd
            self.limit = limit
            self.idleTimeout = idleTimeout
        }

        /// Whether to go on: false once nothing has arrived for `idleTimeout`.
        func progress(_ received: Int64) -> Bool {
            let now = SystemClock.monotonic
            if received != lastReceived {
                (lastReceived, lastGrowth) = (received, now)
            } else if now - lastGrowth > idleTimeout {
                idle = true
            }
            return !idle
        }

        /// Returning less than `count` makes libcurl stop the transfer.
        func write(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            guard written + Int64(count) <= limit else { overLimit = true; return 0 }
            var done = 0
            while done < count {
                let n = Glibc.write(fd, data + done, count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { writeFailed = true; return 0 }
                done += n
            }
            written += Int64(count)
            return count
        }

        func header(_ bytes: UnsafeRawBufferPointer) { headers.add(bytes) }
    }
}

/// The response headers a download keeps, read one line at a time as libcurl hands them
/// over (a redirect's response starts them afresh). The validators go back to the server
/// in the next request: one that is not short printable ASCII is dropped, so a server
/// cannot put line breaks (more headers) into our requests.
public struct ResponseHeaders: Equatable, Sendable {
    public var etag: String?
    public var lastModified: String?
    public var contentLength: Int64?

    public init() {}

    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            self = ResponseHeaders()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "etag": etag = Self.validator(value)
        case "last-modified": lastModified = Self.validator(value)
        case "content-length": contentLength = Int64(value).flatMap { $0 >= 0 ? $0 : nil }
        default: break
        }
    }

    static func validator(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 256, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return nil }
        return value
    }
}
