/// One image the carousel can show: where it comes from and how to name it on screen.
public struct ImageSource: Hashable, Sendable {
    /// The file's path as given or found.
    public var path: String
    /// A human name: the manifest's title, else the file name without its extension.
    public var title: String
    /// A longer line from the manifest, if any.
    public var caption: String?
    /// The file's size and modification time when it was found: a file replaced under the
    /// same name is a different source, so its old decoded image is not shown. Nil: unknown.
    public var stamp: FileStamp?
    /// The clip that is this picture's motion, a file of its own (a Live Photo's `.MOV`
    /// beside its still); nil: none.
    public var motion: String?
    /// When it was taken, as its listing says (a manifest's `taken`, Immich's): the wall
    /// time `YYYY-MM-DDTHH:MM:SS`, with its offset when known; nil: as its file says.
    public var taken: String?
    /// Where it was taken, as its listing says ("Lisbon, Portugal").
    public var place: String?
    /// Who is in it, as its listing says (the people Immich recognised and was told the names of).
    public var people: [String] = []
    /// Its height / width, upright, where known before decoding (`--pair-portraits` read it).
    public var aspect: Double?
    /// The picture shown beside this one as one item (`--pair-portraits`); at most one.
    public var partners: [ImageSource] = []

    public init(path: String, title: String? = nil, caption: String? = nil, stamp: FileStamp? = nil, motion: String? = nil,
                taken: String? = nil, place: String? = nil, people: [String] = []) {
        self.path = path
        self.title = title ?? ImageSource.defaultTitle(for: path)
        self.caption = caption
        self.stamp = stamp
        self.motion = motion
        self.taken = taken
        self.place = place
        self.people = people
    }

    /// What decoding depends on: the file and its version, not its title (a pair: both).
    public var file: FileIdentity {
        FileIdentity(path: path, stamp: stamp, partners: partners.map { FileIdentity(path: $0.path, stamp: $0.stamp) })
    }

    /// This picture without its partner: what each half of a pair is.
    public var alone: ImageSource {
        var one = self
        one.partners = []
        return one
    }

    /// The file name without folder and extension: `/a/b/Sunset.jpg` → `Sunset`.
    public static func defaultTitle(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

/// A file at one version: equal identities decode to the same pixels.
public struct FileIdentity: Hashable, Sendable {
    public var path: String
    public var stamp: FileStamp?
    /// A pair's other picture: the pair decodes to other pixels than its first alone.
    public var partners: [FileIdentity] = []

    public init(path: String, stamp: FileStamp?, partners: [FileIdentity] = []) {
        self.path = path
        self.stamp = stamp
        self.partners = partners
    }
}

extension ImageSource {
    /// Extensions of video clips, lower case: what a folder lists as clips and a view
    /// plays (the content decides how each is decoded): phones' MP4 and MOV, the web's WebM,
    /// editors' MKV, cameras' and dash cams' AVI (Motion JPEG and PCM sound), camcorders' AVCHD
    /// (MTS, M2TS) and MPEG.
    public static let clipExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "webm", "mkv", "3gp", "avi", "mts", "m2ts", "mpg", "mpeg"]

    /// Named as a video clip: the view plays it where it shows a picture's poster.
    public var isClip: Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return Self.clipExtensions.contains(path[path.index(after: dot)...].lowercased())
    }
}

extension ImageSource {
    /// Whether `path` names a picture, a manifest or a WebDAV folder on a web server
    /// (http, https, dav, davs): fetched by the sources, never opened as a file.
    public static func isRemote(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("dav://") || lower.hasPrefix("davs://")
    }
}
