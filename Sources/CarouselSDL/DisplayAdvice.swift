/// Explains a failure to open a display in terms a newcomer can act on.
public enum DisplayAdvice {
    public static func message(for error: SDLError) -> String {
        "no display available (\(error.message)). Without a display, render frames with "
            + "`carousel render`; on a machine without a desktop, start it from a text console "
            + "(SDL uses KMS/DRM there) as a user in the video, render and input groups"
    }
}
