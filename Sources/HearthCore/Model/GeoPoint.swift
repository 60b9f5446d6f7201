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
  package var rangeProblem: String? {
    if !(latitude >= -90 && latitude <= 90) {
      return "GeoPoint requires a latitude value in the range of [-90, 90], but was \(latitude)"
    }
    if !(longitude >= -180 && longitude <= 180) {
      return "GeoPoint requires a longitude value in the range of [-180, 180], but was \(longitude)"
    }
    return nil
  }

  public var description: String { "GeoPoint(\(latitude), \(longitude))" }
}
