import CLinux
import Glibc

/// Starts a child process with posix_spawn: what its standard descriptors are, no signal
/// blocked and every handler at its default (the program blocks the signals it handles on
/// a thread of its own; a child must not inherit that), only the environment given. Used
/// for the decoder helpers and for the program a soak runs.
public enum ChildSpawn {
    /// What a descriptor of the child is.
    public enum Descriptor {
        /// /dev/null, for reading (`false`) or writing (`true`).
        case null(writing: Bool)
        /// A file opened (created and emptied) for writing.
        case file(String)
        /// A copy of one of ours (dup2 clears close-on-exec on the copy).
        case copy(Int32)
    }

    /// Starts `executable` with `arguments` (the first is its name) and `environment`;
    /// `descriptors` maps the child's descriptors to what they are. `closingFrom`: every
    /// descriptor from this one up is closed in the child, whatever another thread opened
    /// without close-on-exec a moment ago. `ownGroup`: the child leads a process group of
    /// its own. The child's pid, or the error posix_spawn gave.
    public static func start(_ executable: String, arguments: [String], environment: [String],
                             descriptors: [Int32: Descriptor], closingFrom: Int32? = nil,
                             ownGroup: Bool = false) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, what) in descriptors.sorted(by: { $0.key < $1.key }) {
            switch what {
            case .null(let writing): posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", writing ? O_WRONLY : O_RDONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .copy(let ours): posix_spawn_file_actions_adddup2(&actions, ours, fd)
            }
        }
        if let closingFrom { _ = kc_spawn_close_from(&actions, closingFrom) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var cArgs = arguments.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var cEnv = environment.map { strdup($0) } + [nil]
        defer { for p in cEnv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, &cArgs, &cEnv)
        return rc == 0 ? .success(pid) : .failure(SpawnError(code: rc))
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }
}
