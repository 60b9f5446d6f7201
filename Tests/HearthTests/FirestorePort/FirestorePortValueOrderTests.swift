import Foundation
import Hearth
import HearthTestSupport
import Testing

// Firestore's value comparison unit tests (Firestore/core/test/unit/model/value_util_test.cc),
// ported as queries: each value is the field `value` of its own document; ordering by that
// field must give Firestore's order (values in one comparison group compare the same, so
// their documents are contiguous, ordered by key as Firestore breaks ties), and `==` on each
// value must return exactly its equality group.
//
// Left out, because they are not values a document can hold here: Firestore's internal bound
// values (MinNumber's NaN is kept, since it is a real value; MinTimestamp has seconds =
// Int64.min, outside the timestamp range; MinReference, MinVector, MaxValue), unresolved server
// timestamps (they resolve at commit), references into other databases, and vector values
// (`{__type__: "__vector__", value: [...]}`, which docs/semantics.md has no type for). The
// RelaxedOrdering test only adds those bound values to StrictOrdering's. CanonicalId,
// DeepClone, ValueHelpers and CanonicalBitsAreCanonical are internal.
// From Equality, the separate groups {-0.0} / {0.0} and {1} / {1.0} are left out:
// docs/semantics.md says `==` follows comparison (`3 == 3.0`; numbers by exact value), where Firestore's Equals
// tells them apart. StrictOrdering's groups, which put them together, are ported.

/// A document ID for member `member` of group `group`. The group part is scrambled (919 is
/// coprime with 1000) so that key order is not the expected value order; members of one group
/// sort by member index.
private func valueID(_ group: Int, _ member: Int) -> String {
  let scrambled = (group * 919) % 1000
  let padded = String(repeating: "0", count: 3 - String(scrambled).count) + String(scrambled)
  return "v\(padded)-\(member)"
}

/// Writes each value of `groups` as `{value: v}` into `collection`; returns the IDs by group.
private func seedGroups(_ collection: CollectionReference, _ groups: [[Any]]) throws -> [[String]] {
  var documents: [String: [String: Any]] = [:]
  var ids: [[String]] = []
  for (g, values) in groups.enumerated() {
    var groupIDs: [String] = []
    for (m, value) in values.enumerated() {
      let id = valueID(g, m)
      documents[id] = ["value": value]
      groupIDs.append(id)
    }
    ids.append(groupIDs)
  }
  try seed(collection, documents)
  return ids
}

/// A comparison group with the type class its values belong to (range filters match only
/// values of the same type class).
private struct OrderGroup {
  var type: String
  var values: [Any]
}

/// ValueUtilTest.StrictOrdering's comparison groups, in Firestore's order, minus the values
/// listed at the top of the file.
private func strictOrderingGroups(_ db: Database) -> [OrderGroup] {
  var groups: [OrderGroup] = []
  func add(_ type: String, _ values: [Any]) { groups.append(OrderGroup(type: type, values: values)) }
  // null first
  add("null", [NSNull()])
  // booleans
  add("bool", [false])
  add("bool", [true])
  // numbers
  add("number", [Double.nan])  // MinNumber()
  add("number", [-1e20])
  add("number", [Int64.min])
  add("number", [-0.1])
  add("number", [-0.0, 0.0, Int64(0)])  // Zeros all compare the same.
  add("number", [0.1])
  add("number", [1.0, Int64(1)])  // Doubles and longs Compare() the same.
  add("number", [Int64.max])
  add("number", [1e20])
  // dates
  add("timestamp", [Timestamp(seconds: 1_463_739_600, nanoseconds: 0)])  // kTimestamp1
  add("timestamp", [Timestamp(seconds: 1_477_063_920, nanoseconds: 0)])  // kTimestamp2
  // strings
  add("string", [""])
  add("string", ["\u{1}\u{d7ff}\u{e000}\u{ffff}"])
  add("string", ["(╯°□°）╯︵ ┻━┻"])
  add("string", ["a"])
  add("string", ["abc\u{0} def"])
  add("string", ["abc def"])
  add("string", ["e\u{0301}b"])  // latin small letter e + combining acute accent + latin small letter b
  add("string", ["æ"])
  add("string", ["\u{00e9}a"])  // latin small letter e with acute accent + latin small letter a
  // blobs
  add("bytes", [Data()])
  add("bytes", [Data([0])])
  add("bytes", [Data([0, 1, 2, 3, 4])])
  add("bytes", [Data([0, 1, 2, 4, 3])])
  add("bytes", [Data([255])])
  // resource names (Firestore's RefValue(DbId("p1/d1"), ...): this database)
  add("reference", [db.document("c1/doc1")])
  add("reference", [db.document("c1/doc2")])
  add("reference", [db.document("c10/doc1")])
  add("reference", [db.document("c2/doc1")])
  // geo points
  for latitude in [-90.0, 0, 1, 90] {
    for longitude in [-180.0, 0, 180] {
      add("geopoint", [GeoPoint(latitude: latitude, longitude: longitude)])
    }
  }
  // arrays
  add("array", [[Any]()])  // MinArray()
  add("array", [["bar"]])
  add("array", [["foo", 1] as [Any]])
  add("array", [["foo", 2] as [Any]])
  add("array", [["foo", "0"]])
  // objects
  add("map", [[String: Any]()])  // MinMap()
  add("map", [["bar": 0]])
  add("map", [["bar": 0, "foo": 1]])
  add("map", [["foo": 1]])
  add("map", [["foo": 2]])
  add("map", [["foo": "0"]])
  return groups
}

@Suite("Firestore port: value ordering and equality")
struct FirestorePortValueOrderTests {

  // ValueUtilTest.StrictOrdering (order by value, ascending and descending)
  @Test func strictOrdering() throws {
    try withDatabase(settings: relaxed) { db in
      let groups = strictOrderingGroups(db)
      let ids = try seedGroups(db.collection("values"), groups.map(\.values))
      let c = db.collection("values")
      expectIDs(c.order(by: "value"), ids.flatMap { $0 }, "ascending")
      // Descending: groups reversed, ties by key descending (the implicit __name__ takes the
      // direction of the last order-by).
      expectIDs(c.order(by: "value", descending: true), ids.reversed().flatMap { $0.reversed() }, "descending")
    }
  }

  // ValueUtilTest.StrictOrdering (values that compare the same are `==`; others are not)
  @Test func strictOrderingGroupsAsEqualityFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let groups = strictOrderingGroups(db)
      let ids = try seedGroups(db.collection("values"), groups.map(\.values))
      let c = db.collection("values")
      for (g, group) in groups.enumerated() {
        for (m, value) in group.values.enumerated() {
          expectIDs(
            c.whereField("value", isEqualTo: value), ids[g], "value == \(canonical(value)) (group \(g), member \(m))")
        }
      }
    }
  }

  // ValueUtilTest.StrictOrdering (as range filters: `<`, `<=`, `>`, `>=` on each group's first
  // value return the earlier / later groups of the same type, in order). Null and NaN are not
  // used as operands, and a NaN field never matches a range (docs/semantics.md).
  @Test func strictOrderingGroupsAsRangeFilters() throws {
    try withDatabase(settings: relaxed) { db in
      let groups = strictOrderingGroups(db)
      let ids = try seedGroups(db.collection("values"), groups.map(\.values))
      let c = db.collection("values")
      func isNaN(_ group: OrderGroup) -> Bool { (group.values[0] as? Double)?.isNaN == true }
      for (g, group) in groups.enumerated() where group.type != "null" && !isNaN(group) {
        let operand = group.values[0]
        let sameType = groups.indices.filter { groups[$0].type == group.type && !isNaN(groups[$0]) }
        func expected(_ include: (Int) -> Bool) -> [String] { sameType.filter(include).flatMap { ids[$0] } }
        let label = "\(canonical(operand)) (group \(g))"
        expectIDs(c.whereField("value", isLessThan: operand), expected { $0 < g }, "value < \(label)")
        expectIDs(c.whereField("value", isLessThanOrEqualTo: operand), expected { $0 <= g }, "value <= \(label)")
        expectIDs(c.whereField("value", isGreaterThan: operand), expected { $0 > g }, "value > \(label)")
        expectIDs(c.whereField("value", isGreaterThanOrEqualTo: operand), expected { $0 >= g }, "value >= \(label)")
      }
    }
  }

  // ValueUtilTest.Equality (each value's `==` returns exactly its equality group)
  @Test func equality() throws {
    try withDatabase(settings: relaxed) { db in
      // kDate1 = 2016-05-20 10:20:00 UTC, kDate2 = 2016-10-21 15:32:00 UTC.
      let date1 = Date(timeIntervalSince1970: 1_463_739_600)
      let date2 = Date(timeIntervalSince1970: 1_477_063_920)
      let groups: [[Any]] = [
        [NSNull(), NSNull()],
        [false, false],
        [true, true],
        [
          Double.nan, Double(bitPattern: 0x7ff8_0000_0000_0000), Double(bitPattern: 0x7fff_0000_0000_0000),
          Double(nan: 1, signaling: false), Double(nan: 2, signaling: false),
        ],
        [1.1, 1.1],
        [Data([0, 1, 1])],
        [Data([0, 1])],
        ["string", "string"],
        ["strin"],
        ["strin\u{0}"],
        ["e\u{0301}b"],  // latin small letter e + combining acute accent
        ["\u{00e9}a"],  // latin small letter e with acute accent
        [date1, Timestamp(seconds: 1_463_739_600, nanoseconds: 0)],
        [date2, Timestamp(seconds: 1_477_063_920, nanoseconds: 0)],
        [GeoPoint(latitude: 0, longitude: 1), GeoPoint(latitude: 0, longitude: 1)],
        [GeoPoint(latitude: 1, longitude: 0)],
        [db.document("coll/doc1"), db.document("coll/doc1")],
        [db.document("coll/doc2")],
        [["foo", "bar"], ["foo", "bar"]],
        [["foo", "bar", "baz"]],
        [["foo"]],
        [["bar": 1, "foo": 2], ["bar": 1, "foo": 2]],
        [["bar": 2, "foo": 1]],
        [["bar": 1]],
        [["foo": 1]],
      ]
      let c = db.collection("values")
      let ids = try seedGroups(c, groups)
      for (g, values) in groups.enumerated() {
        for (m, value) in values.enumerated() {
          expectIDs(
            c.whereField("value", isEqualTo: value), ids[g], "value == \(canonical(value)) (group \(g), member \(m))")
        }
      }
    }
  }

  // ValueUtilTest.CompareMaps
  @Test func compareMaps() throws {
    try withDatabase(settings: relaxed) { db in
      // Same: each is == the other; ordered by key.
      let same1 = try seed(
        db.collection("same1"), ["left": ["value": ["a": 7, "b": 0]], "right": ["value": ["a": 7, "b": 0]]])
      expectIDs(same1.whereField("value", isEqualTo: ["a": 7, "b": 0]), ["left", "right"], "{a:7,b:0} == {a:7,b:0}")
      expectIDs(same1.order(by: "value", descending: true), ["right", "left"], "same, descending")
      let same2 = try seed(
        db.collection("same2"), ["left": ["value": ["a": 3, "b": 5]], "right": ["value": ["b": 5, "a": 3]]])
      expectIDs(same2.whereField("value", isEqualTo: ["b": 5, "a": 3]), ["left", "right"], "{a:3,b:5} == {b:5,a:3}")
      expectIDs(same2.order(by: "value", descending: true), ["right", "left"], "same, descending")
      // Descending: left > right.
      let descending = try seed(
        db.collection("descending"),
        ["left": ["value": ["a": 8, "b": 10, "c": 5]], "right": ["value": ["a": 8, "b": 10]]])
      expectIDs(descending.order(by: "value"), ["right", "left"], "{a:8,b:10,c:5} > {a:8,b:10}")
      expectIDs(descending.whereField("value", isGreaterThan: ["a": 8, "b": 10]), ["left"], "> {a:8,b:10}")
      expectIDs(descending.whereField("value", isEqualTo: ["a": 8, "b": 10]), ["right"], "== {a:8,b:10}")
      // Ascending: left < right.
      let ascending = try seed(
        db.collection("ascending"), ["left": ["value": ["a": 7, "b": 0]], "right": ["value": ["a": 7, "b": 10]]])
      expectIDs(ascending.order(by: "value", descending: true), ["right", "left"], "{a:7,b:0} < {a:7,b:10}")
      expectIDs(ascending.whereField("value", isLessThan: ["a": 7, "b": 10]), ["left"], "< {a:7,b:10}")
    }
  }
}
