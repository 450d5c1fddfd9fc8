/// Which SDL render driver to use. `auto` takes an accelerated one when the machine has it,
/// else the software renderer.
public enum RendererKind: String, CaseIterable, Sendable {
    case auto, opengl, opengles2, software

    /// The SDL_HINT_RENDER_DRIVER value, nil for `auto`.
    var hint: String? { self == .auto ? nil : rawValue }
}
