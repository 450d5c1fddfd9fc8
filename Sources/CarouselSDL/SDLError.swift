import CSDL2

/// A failed SDL call, carrying what SDL_GetError said at the time.
public struct SDLError: Error, CustomStringConvertible {
    public var call: String
    public var message: String

    init(_ call: String) {
        self.call = call
        self.message = String(cString: SDL_GetError())
    }

    init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call) failed: \(message)" }
}
