/// The natural logarithm and exponential the friction glide needs, in plain Swift: the
/// engine imports nothing, not even Foundation's libm. Relative error under 1e-14 over the
/// range scrolling uses (tested against libm): far below a pixel.
enum DecayMath {
    /// e^x: x = n·ln 2 + r with |r| ≤ ln 2 / 2 (ln 2 in two parts, as fdlibm does, so the
    /// reduction loses nothing), e^r by its Taylor series, times 2^n.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.78 { return .infinity }
        if x < -745.2 { return 0 }
        let ln2 = 0.693_147_180_559_945_309_417_232_121_458
        let ln2High = 6.931_471_803_691_238_164_90e-01, ln2Low = 1.908_214_929_270_587_700_02e-10
        let n = (x / ln2).rounded()
        let r = (x - n * ln2High) - n * ln2Low
        var term = 1.0, sum = 1.0
        for k in 1...20 {
            term *= r / Double(k)
            sum += term
        }
        // 2^n in two steps, so that neither factor overflows or underflows on its own.
        let half = (n / 2).rounded(.towardZero)
        return sum * Double(sign: .plus, exponent: Int(half), significand: 1)
            * Double(sign: .plus, exponent: Int(n - half), significand: 1)
    }

    /// ln x for x > 0: x = m · 2^e with m in [√½, √2), ln m = 2·atanh((m − 1)/(m + 1)) by its
    /// series (|y| < 0.18, so 30 terms are more than enough), plus e · ln 2.
    static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        let ln2 = 0.693_147_180_559_945_309_417_232_121_458
        var m = x.significand, e = Double(x.exponent)
        if m > 1.414_213_562_373_095 { m /= 2; e += 1 }
        let y = (m - 1) / (m + 1), y2 = y * y
        var power = y, sum = 0.0
        for k in stride(from: 1, through: 61, by: 2) {
            sum += power / Double(k)
            power *= y2
        }
        return 2 * sum + e * ln2
    }
}
