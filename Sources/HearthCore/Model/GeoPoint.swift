/// A latitude/longitude pair. Latitude must lie in [-90, 90] and longitude in
/// [-180, 180]; writing one outside those ranges fails with `invalidArgument`.
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
  public let latitude: Double
  public let longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Why this point cannot be stored, or `nil` when it can.
  public var rangeProblem: String? {
    if !(latitude >= -90 && latitude <= 90) {
      return "latitude must be a number between -90 and 90, but was \(latitude)"
    }
    if !(longitude >= -180 && longitude <= 180) {
      return "longitude must be a number between -180 and 180, but was \(longitude)"
    }
    return nil
  }

  public var description: String { "GeoPoint(\(latitude), \(longitude))" }
}
