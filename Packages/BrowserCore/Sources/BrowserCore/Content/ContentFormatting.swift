internal import BrowserFormats

/// The few ways numbers are written in summaries and sentences, without a locale (the server's locale is not
/// the reader's, and the output must be the same on every platform).
enum ContentFormatting {
    /// "212 B", "2.1 KB", "48 KB", "10 MB": 1024-based, one decimal below 10.
    static func byteCount(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if value < 10 {
            let tenths = (value * 10).rounded()
            if tenths < 100 {
                let whole = Int(tenths) / 10
                let fraction = Int(tenths) % 10
                return fraction == 0 ? "\(whole) \(units[unit])" : "\(whole).\(fraction) \(units[unit])"
            }
        }
        return "\(Int(value.rounded())) \(units[unit])"
    }

    /// "10,000": thousands separated by commas.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// "1 key", "12 keys".
    static func counted(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(grouped(number)) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// `text` cut to `limit` characters, with "…" when something was cut.
    static func preview(_ text: some StringProtocol, limit: Int) -> String {
        TextPreview.cut(text, limit: limit)
    }

    /// Hex of the first bytes of a data value: "89 50 4e 47 …".
    static func hexPreview(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, limit: Int) -> String {
        let shown = range.prefix(max(1, limit / 3))
        let digits: [Character] = Array("0123456789abcdef")
        var text = ""
        for index in shown {
            if !text.isEmpty { text.append(" ") }
            text.append(digits[Int(bytes[index] >> 4)])
            text.append(digits[Int(bytes[index] & 0x0F)])
        }
        return shown.count < range.count ? text + " …" : text
    }

    /// `text` with the control characters `TextScan` counts (C0 other than tab, line feed, form feed and
    /// carriage return, and DEL) replaced by their Control Pictures (U+2400…), so a preview shows them.
    static func visibleControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isCountedControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isCountedControl(scalar) {
                result.append(Unicode.Scalar(scalar.value == 0x7F ? 0x2421 : 0x2400 + scalar.value) ?? scalar)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isCountedControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains(scalar.value)) || scalar.value == 0x7F
    }
}
