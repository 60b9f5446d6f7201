import Foundation

/// A point in time with nanosecond fields, as in Firestore. Stored values are truncated
/// to microseconds (Firestore's precision).
///
/// Valid timestamps lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z;
/// writing one outside that range fails with `invalidArgument`.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public let seconds: Int64
  public let nanoseconds: Int32

  /// `seconds` since the Unix epoch and `nanoseconds` (0...999,999,999) past them.
  /// Nanoseconds outside that range carry into the seconds.
  public init(seconds: Int64, nanoseconds: Int32) {
    let carry = Int64(nanoseconds).floorDivided(by: 1_000_000_000)
    self.seconds = seconds &+ carry
    self.nanoseconds = Int32(Int64(nanoseconds) - carry * 1_000_000_000)
  }

  /// Now.
  public init() { self.init(date: Date()) }

  /// The date's time, its fraction of a second cut (not rounded) to nanoseconds, as
  /// Firebase's `Timestamp(date:)` does.
  public init(date: Date) {
    let interval = date.timeIntervalSince1970
    let seconds = interval.rounded(.down)
    let nanos = min(((interval - seconds) * 1e9).rounded(.towardZero), 1e9 - 1)
    if seconds.isFinite, abs(seconds) < 9.2e18 {
      self.init(seconds: Int64(seconds), nanoseconds: Int32(nanos))
    } else {
      self.init(seconds: seconds < 0 ? .min : .max, nanoseconds: 0)
    }
  }

  public func dateValue() -> Date {
    Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
  }

  /// Microseconds since the epoch (the stored precision), saturating at Int64's bounds.
  package var microseconds: Int64 {
    // Exact in 128 bits, then clamped: `seconds * 1_000_000` alone can overflow where the
    // sum fits (just above Int64.min), which used to saturate a representable value.
    Int64(clamping: Int128(seconds) * 1_000_000 + Int128(nanoseconds / 1000))
  }

  package init(microseconds: Int64) {
    // Truncating division cannot overflow; a negative remainder borrows one second. (The
    // floored quotient times 1_000_000 overflowed, and trapped, within 10^6 of Int64.min:
    // a checksum-valid stored time could crash the document decoder.)
    let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
    let borrow: Int64 = remainder < 0 ? 1 : 0
    self.init(seconds: quotient - borrow, nanoseconds: Int32((remainder + borrow * 1_000_000) * 1000))
  }

  /// This timestamp with its nanoseconds truncated to whole milliseconds.
  package var truncatedToMilliseconds: Timestamp {
    Timestamp(seconds: seconds, nanoseconds: nanoseconds - nanoseconds % 1_000_000)
  }

  /// This timestamp with its nanoseconds truncated to whole microseconds.
  package var truncatedToMicroseconds: Timestamp {
    Timestamp(seconds: seconds, nanoseconds: nanoseconds / 1000 * 1000)
  }

  /// -62135596800: 0001-01-01T00:00:00Z; 253402300799: 9999-12-31T23:59:59Z.
  static let validSeconds: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

  package var isInFirestoreRange: Bool { Timestamp.validSeconds.contains(seconds) }

  public static func < (a: Timestamp, b: Timestamp) -> Bool {
    (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
  }

  /// RFC 3339 in UTC with as many fraction digits as needed (up to nine), e.g.
  /// `2026-11-29T10:00:00.123456Z`.
  package var rfc3339: String { RFC3339.format(self) }

  public var description: String {
    "Timestamp(seconds=\(seconds), nanoseconds=\(nanoseconds))"
  }
}

extension Int64 {
  /// Division rounding toward negative infinity.
  func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
