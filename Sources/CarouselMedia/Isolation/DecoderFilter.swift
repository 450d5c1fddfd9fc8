/// Whether a decoder helper may decode without its system-call filter (`--decoder-filter`):
/// on a kernel without seccomp, or one that refuses to filter every thread. `required` (the
/// default) refuses such a helper before it reads a byte, and says why once: a file anyone
/// dropped in is then never decoded by a process that could open, send or start anything.
/// `optional` lets it decode with its other limits (its own descriptors only, a memory cap,
/// dying with the program) and says so once.
public enum DecoderFilter: String, CaseIterable, Sendable {
    case required, optional
}
