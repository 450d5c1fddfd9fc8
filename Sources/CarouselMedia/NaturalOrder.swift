/// File-name order as people expect it: digit runs compare as numbers (img2 before
/// img10) and letters compare without regard to case.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        let ta = tokens(a), tb = tokens(b)
        for (x, y) in zip(ta, tb) where x != y {
            switch (x, y) {
            case (.number(let m, let ms), .number(let n, let ns)):
                if m.count != n.count { return m.count < n.count }
                if m != n { return m < n }
                return ms < ns  // "02" after "2": keep a stable total order
            case (.text(let s), .text(let t)):
                return s < t
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        if ta.count != tb.count { return ta.count < tb.count }
        return a < b
    }

    private enum Token: Equatable {
        /// Digits without leading zeros, and the original text.
        case number(String, String)
        case text(String)
    }

    private static func tokens(_ s: String) -> [Token] {
        var out: [Token] = []
        var current = "", inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                let trimmed = String(current.drop { $0 == "0" })
                out.append(.number(trimmed, current))
            } else {
                out.append(.text(current.lowercased()))
            }
            current = ""
        }
        for ch in s {
            let digit = ch.isASCII && ch.isNumber
            if digit != inDigits { flush(); inDigits = digit }
            current.append(ch)
        }
        flush()
        return out
    }
}
