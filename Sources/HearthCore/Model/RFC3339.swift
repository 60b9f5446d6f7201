/// RFC 3339 timestamps in UTC (`2026-11-29T10:00:00.123456Z`), written and read without
/// `DateFormatter`, exactly to the nanosecond, for the years 0001–9999.
package enum RFC3339 {
  package static func format(_ timestamp: Timestamp) -> String {
    let days = timestamp.seconds.floorDivided(by: 86_400)
    let secondOfDay = Int64(timestamp.seconds - days * 86_400)
    let (year, month, day) = civil(fromDays: days)
    // Written digit by digit into one small buffer: exports format two times a document.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    func digits(_ value: Int64, _ width: Int) {
      var divisor: Int64 = 1
      for _ in 1..<width { divisor *= 10 }
      guard value >= 0, value < divisor * 10 else {
        bytes += String(value).utf8
        return
      }
      var remaining = value
      while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
        remaining %= divisor
        divisor /= 10
      }
    }
    digits(year, 4)
    bytes.append(UInt8(ascii: "-"))
    digits(Int64(month), 2)
    bytes.append(UInt8(ascii: "-"))
    digits(Int64(day), 2)
    bytes.append(UInt8(ascii: "T"))
    digits(secondOfDay / 3600, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(secondOfDay / 60 % 60, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(secondOfDay % 60, 2)
    if timestamp.nanoseconds != 0 {
      // Whole milliseconds or microseconds read best with 3 or 6 digits.
      var fraction = Int64(timestamp.nanoseconds)
      var width = 9
      while width > 3 && fraction % 1000 == 0 {
        fraction /= 1000
        width -= 3
      }
      bytes.append(UInt8(ascii: "."))
      digits(fraction, width)
    }
    bytes.append(UInt8(ascii: "Z"))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `nil` when malformed.
  package static func parse(_ text: String) -> Timestamp? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int64? {
      guard index + digits <= bytes.count else { return nil }
      var value: Int64 = 0
      for _ in 0..<digits {
        let byte = bytes[index]
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
        index += 1
      }
      return value
    }
    func expect(_ characters: String) -> Bool {
      guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"),
      let day = number(2), expect("Tt "), let hour = number(2), expect(":"),
      let minute = number(2), expect(":"), let second = number(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60, year >= 1
    else { return nil }
    var nanos: Int64 = 0
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      var digits = 0
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        if digits < 9 { nanos = nanos * 10 + Int64(bytes[index] - 0x30) }
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<max(digits, 9) { nanos *= 10 }
    }
    var offset: Int64 = 0
    guard index < bytes.count else { return nil }
    if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
      index += 1
    } else {
      let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      guard expect("+-"), let offsetHours = number(2), expect(":"), let offsetMinutes = number(2),
        offsetHours < 24, offsetMinutes < 60
      else { return nil }
      offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    }
    guard index == bytes.count else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = y.floorDivided(by: 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
    let z = days + 719_468
    let era = z.floorDivided(by: 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
    let month = Int(mp < 10 ? mp + 3 : mp - 9)
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
