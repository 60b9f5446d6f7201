import HearthCore

/// A query's `find_nearest` (vector search), as Google's emulator answers it: of the
/// documents the query's filters match (and that have its order-by fields), those whose
/// vector field holds a vector of the query vector's dimension, nearest first — by
/// Euclidean or cosine distance ascending, by dot product descending; NaN distances
/// last; ties by name — within `distance_threshold` (at most it, or for a dot
/// product at least it), up to `limit`. `distance_result_field` names a field (taken
/// literally, not as a path) that each result gets with its distance. Every document is
/// measured: the emulator needs no vector index, and neither does Hearth.
struct VectorSearch {
  enum Measure: Int32 {
    case euclidean = 1
    case cosine, dotProduct
  }

  let field: FieldPath
  let vector: [Double]
  let measure: Measure
  let limit: Int
  let threshold: Double?
  let resultField: String?

  /// The most results a search may ask for.
  static let maximumLimit = 1000

  /// - Throws: `invalidArgument`, in the emulator's words, for a query with a limit, an
  ///   offset or a cursor, an empty vector field, a query vector that is not a vector or
  ///   is empty, an unknown distance measure, a limit outside 1...1000, or a reserved
  ///   result field.
  init(_ nearest: FirestoreV1.FindNearest, of query: FirestoreV1.StructuredQuery) throws {
    func invalid(_ message: String) -> HearthError { HearthError(.invalidArgument, message) }
    if query.model.limit != nil { throw invalid("A query limit cannot be used with FindNearest") }
    if query.offset != 0 { throw invalid("A query offset cannot be used with FindNearest") }
    if query.model.startAt != nil || query.model.endAt != nil {
      throw invalid("A cursor cannot be used with FindNearest")
    }
    guard let field = nearest.vectorField, !field.segments.isEmpty else {
      throw invalid("Invalid empty property path string.")
    }
    guard case .map(let fields)? = nearest.queryVector, let vector = Value.vectorNumbers(fields) else {
      throw invalid("Query Value must be of type vector.")
    }
    guard !vector.isEmpty else { throw invalid("Cannot have a zero length vector.") }
    guard let measure = Measure(rawValue: nearest.distanceMeasure) else { throw invalid("Unknown Distance Measure.") }
    guard let limit = nearest.limit, (1...Int32(Self.maximumLimit)).contains(limit) else {
      throw invalid("FindNearest.limit must be a positive integer of no more than \(Self.maximumLimit)")
    }
    if BackendQueryRules.isReserved(nearest.distanceResultField) {
      throw invalid("The distanceResultField.property.name \"\(nearest.distanceResultField)\" is reserved.")
    }
    self.field = field
    self.vector = vector
    self.measure = measure
    self.limit = Int(limit)
    threshold = nearest.distanceThreshold
    resultField = nearest.distanceResultField.isEmpty ? nil : nearest.distanceResultField
  }

  /// The nearest of `documents` (the query's matches), nearest first, each with its
  /// distance in `resultField` when there is one.
  func nearest(_ documents: [StoredDocument]) -> [StoredDocument] {
    var measured: [(document: StoredDocument, distance: Double)] = []
    for document in documents {
      guard case .map(let fields)? = FieldOperations.value(at: field, in: document.fields),
        let numbers = Value.vectorNumbers(fields), numbers.count == vector.count
      else { continue }
      let distance = self.distance(to: numbers)
      if let threshold, !(measure == .dotProduct ? distance >= threshold : distance <= threshold) { continue }
      measured.append((document, distance))
    }
    measured.sort { a, b in
      switch (a.distance.isNaN, b.distance.isNaN) {
      case (false, true): return true
      case (true, false): return false
      case (false, false) where a.distance != b.distance:
        return measure == .dotProduct ? a.distance > b.distance : a.distance < b.distance
      default: return a.document.key.compare(b.document.key, zeroByteFirst: false) < 0
      }
    }
    return measured.prefix(limit).map { document, distance in
      guard let resultField else { return document }
      var fields = document.fields
      fields[resultField] = .double(distance)
      return StoredDocument(
        key: document.key, fields: fields, createTime: document.createTime, updateTime: document.updateTime)
    }
  }

  /// The distance of `numbers` from the query vector (of the same dimension); the cosine
  /// distance of a zero vector is NaN. Computed as the emulator computes it, to the last
  /// bit (probed on 711 distances of random vectors of 3, 5 and 8 dimensions): sums of
  /// products over four lanes (`laneSum`), the cosine's norms under one root.
  func distance(to numbers: [Double]) -> Double {
    switch measure {
    case .euclidean:
      let squares = Self.laneSum(vector.count, fusedTail: true) { i in
        (numbers[i] - vector[i], numbers[i] - vector[i])
      }
      return squares.squareRoot()
    case .dotProduct:
      return Self.laneSum(vector.count, fusedTail: false) { i in (numbers[i], vector[i]) }
    case .cosine:
      let dot = Self.laneSum(vector.count, fusedTail: false) { i in (numbers[i], vector[i]) }
      let left = Self.laneSum(vector.count, fusedTail: false) { i in (numbers[i], numbers[i]) }
      let right = Self.laneSum(vector.count, fusedTail: false) { i in (vector[i], vector[i]) }
      return 1 - dot / (left * right).squareRoot()
    }
  }

  /// The sum of the `count` products `factors` gives, in the emulator's order (Java's
  /// vector API over four lanes): each whole group of four fused-multiply-added into its
  /// four lanes, the lanes added first to last, then each product left over added —
  /// fused for a Euclidean distance, plain for a dot product.
  static func laneSum(_ count: Int, fusedTail: Bool, _ factors: (Int) -> (Double, Double)) -> Double {
    var lanes = (0.0, 0.0, 0.0, 0.0)
    var index = 0
    while index + 4 <= count {
      let (a0, b0) = factors(index)
      let (a1, b1) = factors(index + 1)
      let (a2, b2) = factors(index + 2)
      let (a3, b3) = factors(index + 3)
      lanes = (
        lanes.0.addingProduct(a0, b0), lanes.1.addingProduct(a1, b1), lanes.2.addingProduct(a2, b2),
        lanes.3.addingProduct(a3, b3)
      )
      index += 4
    }
    var sum = ((lanes.0 + lanes.1) + lanes.2) + lanes.3
    while index < count {
      let (a, b) = factors(index)
      sum = fusedTail ? sum.addingProduct(a, b) : sum + a * b
      index += 1
    }
    return sum
  }
}
