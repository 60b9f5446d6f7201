import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Firestore's 1,500-byte limit on field names and field paths (`FieldPath.maxBytes`), in
/// UTF-8 bytes of the path written with dots, as the emulator counts it: a name of 1,500
/// bytes is kept and one of 1,501 refused ("The property.name is longer than 1500
/// bytes."), a nested name by its whole path (`m.` + 1,498 bytes is kept, `m.` + 1,499
/// refused, through arrays too). Every way a name enters is checked, and a refused write
/// changes nothing.
@Suite struct FieldNameLengthTests {
  static let longest = String(repeating: "a", count: 1500)
  static let tooLong = String(repeating: "a", count: 1501)
  static let rule = "at most 1500 bytes"

  @Test func topLevelNamesUpTo1500BytesAreKept() throws {
    try withDatabase { db in
      let doc = db.document("names/top")
      try doc.setData([Self.longest: 1])
      expectSame(try doc.getDocument().data(), [Self.longest: 1])
      try doc.setData([String(repeating: "é", count: 750): true])  // 1,500 bytes
      expectSame(try doc.getDocument().get(FieldPath([String(repeating: "é", count: 750)])), true)

      let before = try databaseContents(db)
      for name in [Self.tooLong, String(repeating: "é", count: 751)] {
        expectHearthError(.invalidArgument, mentioning: ["names/top", "is \(name.utf8.count) bytes long", Self.rule]) {
          try doc.setData([name: 1])
        }
        expectHearthError(.invalidArgument, mentioning: ["names/top", Self.rule]) {
          try doc.setData([name: 1], merge: true)
        }
        expectHearthError(.invalidArgument, mentioning: ["names/new", Self.rule]) {
          try db.document("names/new").create([name: 1])
        }
        expectHearthError(.invalidArgument, mentioning: [Self.rule]) {
          try db.collection("names").addDocument(data: ["ok": 1, name: 1])
        }
        expectHearthError(.invalidArgument, mentioning: [Self.rule], "a transform under a long name") {
          try doc.setData([name: FieldValue.increment(Int64(1))], merge: true)
        }
      }
      #expect(try databaseContents(db) == before, "nothing is written")
    }
  }

  @Test func nestedNamesCountTheirWholePath() throws {
    try withDatabase { db in
      let doc = db.document("names/nested")
      let fits = String(repeating: "b", count: 1498)  // "m." + 1,498 = 1,500 bytes
      let over = String(repeating: "b", count: 1499)
      try doc.setData(["m": [fits: 1]])
      try doc.setData(["m": [[fits: 1]] as [Any]])  // an array adds nothing to the path
      try doc.setData([
        String(repeating: "x", count: 500): [String(repeating: "y", count: 500): [String(fits.prefix(498)): 1]]
      ])

      let before = try databaseContents(db)
      let refused: [[String: Any]] = [
        ["m": [over: 1]], ["m": [[over: 1]] as [Any]], ["m": [over: [:] as [String: Any]]],
        [String(repeating: "x", count: 500): [String(repeating: "y", count: 500): [String(over.prefix(499)): 1]]],
      ]
      for data in refused {
        expectHearthError(.invalidArgument, mentioning: ["names/nested", "is 1501 bytes long", Self.rule]) {
          try doc.setData(data)
        }
        expectHearthError(.invalidArgument, mentioning: [Self.rule]) { try doc.setData(data, merge: true) }
      }
      #expect(try databaseContents(db) == before)
    }
  }

  @Test func updatePathsAndTheirValues() throws {
    try withDatabase { db in
      let doc = db.document("names/update")
      try doc.setData(["m": [:] as [String: Any]])
      try doc.updateData([Self.longest: 1, FieldPath(["m", String(repeating: "c", count: 1498)]): 2])

      let before = try databaseContents(db)
      let refused: [[AnyHashable: Any]] = [
        [Self.tooLong: 1],
        ["m." + String(repeating: "c", count: 1499): 1],
        [FieldPath([Self.tooLong]): 1],
        [FieldPath(["m", String(repeating: "c", count: 1499)]): 1],
        [Self.tooLong: FieldValue.delete()],
        [Self.tooLong: FieldValue.serverTimestamp()],
        ["m": [String(repeating: "c", count: 1499): 1]],  // a map value under a short path
      ]
      for update in refused {
        expectHearthError(.invalidArgument, mentioning: [Self.rule], "\(update.keys.map { "\($0)".count })") {
          try doc.updateData(update)
        }
        expectHearthError(.invalidArgument, mentioning: [Self.rule]) {
          let batch = db.batch()
          batch.updateData(update, forDocument: doc)
          try batch.commit()
        }
      }
      #expect(try databaseContents(db) == before)
    }
  }

  @Test func mergeFieldsPaths() throws {
    try withDatabase { db in
      let doc = db.document("names/merge")
      try doc.setData([Self.longest: 1, "x": 1], mergeFields: [Self.longest])
      let before = try databaseContents(db)
      expectHearthError(.invalidArgument, mentioning: [Self.rule]) {
        try doc.setData(["x": 2], mergeFields: ["x", Self.tooLong])
      }
      expectHearthError(.invalidArgument, mentioning: [Self.rule]) {
        try doc.setData(["x": 2], mergeFields: [FieldPath([Self.tooLong])])
      }
      #expect(try databaseContents(db) == before)
    }
  }

  @Test func arrayUnionOperandsAreCheckedWhereTheyLand() throws {
    try withDatabase { db in
      let doc = db.document("names/union")
      try doc.setData(["list": [] as [Any]])
      let before = try databaseContents(db)
      // "list." + 1,496 bytes = 1,501: the element's map lands under "list".
      let element: [String: Any] = [String(repeating: "d", count: 1496): 1]
      expectHearthError(.invalidArgument, mentioning: ["names/union", "is 1501 bytes long", Self.rule]) {
        try doc.updateData(["list": FieldValue.arrayUnion([element])])
      }
      #expect(try databaseContents(db) == before)
      try doc.updateData(["list": FieldValue.arrayUnion([[String(repeating: "d", count: 1495): 1]])])
    }
  }

  @Test func transactionsWriteNothing() throws {
    try withDatabase { db throws in
      let other = db.document("names/other")
      expectHearthError(.invalidArgument, mentioning: [Self.rule]) {
        try db.runTransaction { transaction in
          transaction.setData(["ok": true], forDocument: other)
          transaction.setData([Self.tooLong: 1], forDocument: db.document("names/long"))
        }
      }
      #expect(try databaseContents(db).isEmpty)
    }
  }

  @Test func queryFieldPaths() throws {
    try withDatabase { db in
      try db.document("names/q").setData([Self.longest: 1])
      let names = db.collection("names")
      #expect(try names.whereField(Self.longest, isEqualTo: 1).getDocuments().count == 1)
      #expect(try names.order(by: FieldPath([Self.longest])).getDocuments().count == 1)

      let refused: [(String, Query)] = [
        ("whereField", names.whereField(Self.tooLong, isEqualTo: 1)),
        ("whereField(FieldPath)", names.whereField(FieldPath([Self.tooLong]), isEqualTo: 1)),
        (
          "whereFilter",
          names.whereFilter(.orFilter([.whereField("x", isEqualTo: 1), .whereField(Self.tooLong, isEqualTo: 1)]))
        ),
        ("order(by:)", names.order(by: Self.tooLong)),
        ("order(by: FieldPath)", names.order(by: FieldPath(["m", String(repeating: "e", count: 1499)]))),
      ]
      for (name, query) in refused {
        expectHearthError(.invalidArgument, mentioning: ["is 1501 bytes long", Self.rule], name) {
          _ = try query.getDocuments()
        }
      }
      expectHearthError(.invalidArgument, mentioning: [Self.rule], "sum") {
        _ = try names.aggregate([.sum(Self.tooLong)]).getAggregation()
      }
      expectHearthError(.invalidArgument, mentioning: [Self.rule], "average(FieldPath)") {
        _ = try names.aggregate([.average(FieldPath([Self.tooLong]))]).getAggregation()
      }
    }
  }

  @Test func importRefusesTheFileAndWritesNothing() throws {
    try withScratchDirectory { directory in
      try withDatabase { db in
        let file = directory + "/long.jsonl"
        let header = #"{"hearth":"export","version":1,"exportedAt":"2026-11-29T10:00:00Z","documents":2}"#
        try writeLines(
          [
            header, #"{"path":"people/ok","fields":{"a":1}}"#,
            #"{"path":"people/long","fields":{"m":{"\#(String(repeating: "f", count: 1499))":1}}}"#,
          ], to: file)
        expectHearthError(.invalidArgument, mentioning: [file + ":3:", "people/long", Self.rule]) {
          try db.import(from: file)
        }
        #expect(try databaseContents(db).isEmpty)
      }
    }
  }

  @Test func indexDeclarations() throws {
    try withDatabase { db in
      let json = """
        {"indexes": [{"collectionGroup": "names", "queryScope": "COLLECTION", "fields": [
          {"fieldPath": "x", "order": "ASCENDING"}, {"fieldPath": "\(Self.tooLong)", "order": "ASCENDING"}]}]}
        """
      expectHearthError(.invalidArgument, mentioning: ["is 1501 bytes long", Self.rule]) {
        try db.declareIndexes(json: json)
      }
    }
  }
}
