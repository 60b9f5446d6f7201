import Foundation
import Hearth
import HearthTestSupport
import Testing

// Hearth's own acceptance sequences for snapshot listeners (docs/semantics.md, "Listeners"): each
// test replays writes and compares EVERY snapshot the listener gets — the documents in order,
// and the changes with their types and old/new indexes (`"added y -/0"`: "-" is
// `UInt(NSNotFound)`). A later snapshot lists all removals, then all additions, then all
// modifications, each group in query order; `oldIndex` counts the earlier changes of the
// same snapshot. A commit that changes nothing a listener can see raises nothing: such
// cases are checked by a quiet period, then by writing something visible and checking that
// the next snapshot is exactly that.

@Suite("Listeners")
struct ListenerTests {

  // MARK: - Changes and indexes

  @Test func threeAddsInOneBatchArriveAsOneSnapshotInQueryOrder() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = db.collection("c")
      let recorder = QueryRecorder()
      let registration = c.order(by: "n").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(recorder.next("the first snapshot"), ids: [], changes: [], "an empty first snapshot")

      let batch = db.batch()
      batch.setData(["n": 2], forDocument: c.document("x"))
      batch.setData(["n": 1], forDocument: c.document("y"))
      batch.setData(["n": 3], forDocument: c.document("z"))
      try batch.commit()
      let snapshot = recorder.next("the batch")
      expectSnapshot(snapshot, ids: ["y", "x", "z"], changes: ["added y -/0", "added x -/1", "added z -/2"])
      #expect(snapshot.map(describeData) == ["{str:[110]:int:1}", "{str:[110]:int:2}", "{str:[110]:int:3}"])
      recorder.expectNoMore("one batch is one commit")
      recorder.expectNoErrors()
    }
  }

  @Test func addModifyDeleteAndReAdd() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1], "c": ["n": 3]])
      let recorder = QueryRecorder()
      let registration = c.order(by: "n").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(recorder.next(), ids: ["a", "c"], changes: ["added a -/0", "added c -/1"], "first")

      try c.document("b").setData(["n": 2])
      expectSnapshot(recorder.next(), ids: ["a", "b", "c"], changes: ["added b -/1"], "add")

      try c.document("b").updateData(["v": "x"])
      let modified = recorder.next()
      expectSnapshot(modified, ids: ["a", "b", "c"], changes: ["modified b 1/1"], "modify in place")
      expectSame(modified?.documentChanges.first?.document.data(), ["n": 2, "v": "x"], "the modified document")

      try c.document("b").delete()
      let removed = recorder.next()
      expectSnapshot(removed, ids: ["a", "c"], changes: ["removed b 1/-"], "delete")
      expectSame(
        removed?.documentChanges.first?.document.data(), ["n": 2, "v": "x"], "a removal carries the last data")

      try c.document("b").setData(["n": 2])
      let readded = recorder.next()
      expectSnapshot(readded, ids: ["a", "b", "c"], changes: ["added b -/1"], "re-add")
      expectSame(readded?.documentChanges.first?.document.data(), ["n": 2], "the re-added document")
      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  @Test func aModifyThatMovesADocumentAcrossTheOrdering() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1], "b": ["n": 2], "c": ["n": 3], "d": ["n": 4]])
      let recorder = QueryRecorder()
      let registration = c.order(by: "n").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(
        recorder.next(), ids: ["a", "b", "c", "d"],
        changes: ["added a -/0", "added b -/1", "added c -/2", "added d -/3"], "first")

      try c.document("a").setData(["n": 5])
      expectSnapshot(recorder.next(), ids: ["b", "c", "d", "a"], changes: ["modified a 0/3"], "first to last")

      try c.document("d").setData(["n": 0])
      expectSnapshot(recorder.next(), ids: ["d", "b", "c", "a"], changes: ["modified d 2/0"], "middle to first")

      // Two moves in one commit: modifications in new query order (b, then c); b's old index
      // is its place before the commit, c's counts b's move already.
      let batch = db.batch()
      batch.setData(["n": 6], forDocument: c.document("c"))
      batch.setData(["n": -1], forDocument: c.document("b"))
      try batch.commit()
      expectSnapshot(
        recorder.next(), ids: ["b", "d", "a", "c"], changes: ["modified b 1/0", "modified c 2/3"], "two moves")

      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  @Test func removalsThenAdditionsThenModificationsWithRunningIndexes() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1], "b": ["n": 2], "c": ["n": 3], "d": ["n": 4]])
      let recorder = QueryRecorder()
      let registration = c.order(by: "n").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      _ = recorder.next("first")

      // One commit: modify d (4 → 1.5), add e (0), delete c. Removed c at 2 of [a b c d] → [a b d];
      // added e → [e a b d] at 0; modified d: at 3 of [e a b d], moves to 2 of [e a d b].
      let batch = db.batch()
      batch.setData(["n": 1.5], forDocument: c.document("d"))
      batch.setData(["n": 0], forDocument: c.document("e"))
      batch.deleteDocument(c.document("c"))
      try batch.commit()
      expectSnapshot(
        recorder.next(), ids: ["e", "a", "d", "b"], changes: ["removed c 2/-", "added e -/0", "modified d 3/2"])

      // Several of each kind: removals in (old) query order, additions and modifications in
      // new query order, each index counting the changes listed before it.
      // Before: [e0 a1 d1.5 b2]. Delete e and b; add f (1.2) and g (9); modify a → 3, d → 0.5.
      // removed e 0 → [a d b]; removed b 2 → [a d]; added f → [a f d] at 1; added g → [a f d g] at 3;
      // modified d (0.5): at 2 → [d a f g] at 0; modified a (3): at 1 → [d f a g] at 2.
      let batch2 = db.batch()
      batch2.deleteDocument(c.document("e"))
      batch2.deleteDocument(c.document("b"))
      batch2.setData(["n": 1.2], forDocument: c.document("f"))
      batch2.setData(["n": 9], forDocument: c.document("g"))
      batch2.updateData(["n": 3], forDocument: c.document("a"))
      batch2.updateData(["n": 0.5], forDocument: c.document("d"))
      try batch2.commit()
      expectSnapshot(
        recorder.next(), ids: ["d", "f", "a", "g"],
        changes: [
          "removed e 0/-", "removed b 2/-", "added f -/1", "added g -/3", "modified d 2/0", "modified a 1/2",
        ])
      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  @Test func descendingOrderIndexes() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1], "b": ["n": 2], "c": ["n": 3]])
      let recorder = QueryRecorder()
      let registration = c.order(by: "n", descending: true).addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(recorder.next(), ids: ["c", "b", "a"], changes: ["added c -/0", "added b -/1", "added a -/2"])
      try c.document("a").setData(["n": 10])
      expectSnapshot(recorder.next(), ids: ["a", "c", "b"], changes: ["modified a 2/0"])
      try c.document("d").setData(["n": 2])  // ties with b on n; __name__ descending puts d first
      expectSnapshot(recorder.next(), ids: ["a", "c", "d", "b"], changes: ["added d -/2"])
      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  // MARK: - Limits

  @Test func limitAndLimitToLastMirrorQueriesWhenANewFirstElementPushesOneOut() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(
        db.collection("c"),
        [
          "a": ["k": "a", "sort": 0], "b": ["k": "b", "sort": 1], "c": ["k": "c", "sort": 1],
          "d": ["k": "d", "sort": 2],
        ])
      let limit = QueryRecorder()
      let limitRegistration = c.order(by: "sort").limit(to: 2).addSnapshotListener(limit.handler)
      defer { limitRegistration.remove() }
      let limitToLast = QueryRecorder()
      let limitToLastRegistration = c.order(by: "sort", descending: true).limit(toLast: 2)
        .addSnapshotListener(limitToLast.handler)
      defer { limitToLastRegistration.remove() }
      expectSnapshot(limit.next(), ids: ["a", "b"], changes: ["added a -/0", "added b -/1"], "limit, first")
      expectSnapshot(
        limitToLast.next(), ids: ["b", "a"], changes: ["added b -/0", "added a -/1"], "limitToLast, first")

      // A new first element (sort -1) pushes b out of the limit window; in limitToLast (query
      // order d c b a e, last two) it pushes b out too and comes last.
      try c.document("e").setData(["k": "e", "sort": -1])
      expectSnapshot(limit.next(), ids: ["e", "a"], changes: ["removed b 1/-", "added e -/0"], "limit, e added")
      expectSnapshot(
        limitToLast.next(), ids: ["a", "e"], changes: ["removed b 0/-", "added e -/1"], "limitToLast, e added")

      // a moves before e: a modification inside both windows.
      try c.document("a").updateData(["sort": -2])
      expectSnapshot(limit.next(), ids: ["a", "e"], changes: ["modified a 1/0"], "limit, a moved")
      expectSnapshot(limitToLast.next(), ids: ["e", "a"], changes: ["modified a 0/1"], "limitToLast, a moved")

      // A change outside both windows raises nothing.
      try c.document("d").updateData(["k": "dd"])
      limit.expectNoMore("d is outside the limit window")
      limitToLast.expectNoMore("d is outside the limitToLast window")
      limit.expectNoErrors()
      limitToLast.expectNoErrors()
    }
  }

  @Test func aDeleteInsideALimitedWindowPullsTheNextDocumentIn() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1], "b": ["n": 2], "c": ["n": 3], "d": ["n": 4], "e": ["n": 5]])
      let first = QueryRecorder()
      let firstRegistration = c.order(by: "n").limit(to: 2).addSnapshotListener(first.handler)
      defer { firstRegistration.remove() }
      let last = QueryRecorder()
      let lastRegistration = c.order(by: "n").limit(toLast: 2).addSnapshotListener(last.handler)
      defer { lastRegistration.remove() }
      expectSnapshot(first.next(), ids: ["a", "b"], changes: ["added a -/0", "added b -/1"], "limit, first")
      expectSnapshot(last.next(), ids: ["d", "e"], changes: ["added d -/0", "added e -/1"], "limitToLast, first")

      try c.document("a").delete()
      expectSnapshot(first.next(), ids: ["b", "c"], changes: ["removed a 0/-", "added c -/1"], "limit: c pulled in")
      last.expectNoMore("a was outside the limitToLast window")

      try c.document("e").delete()
      expectSnapshot(
        last.next(), ids: ["c", "d"], changes: ["removed e 1/-", "added c -/0"], "limitToLast: c pulled in")
      first.expectNoMore("e was outside the limit window")

      // A modification that moves a document out of the window pulls the next one in too.
      try c.document("b").updateData(["n": 10])
      expectSnapshot(first.next(), ids: ["c", "d"], changes: ["removed b 0/-", "added d -/1"], "limit: b moved out")
      expectSnapshot(
        last.next(), ids: ["d", "b"], changes: ["removed c 0/-", "added b -/1"], "limitToLast: b moved in")

      // Deleting until fewer documents than the limit remain empties the window.
      try c.document("c").delete()
      expectSnapshot(first.next(), ids: ["d", "b"], changes: ["removed c 0/-", "added b -/1"], "limit: c deleted")
      last.expectNoMore("c was outside the limitToLast window")
      try c.document("d").delete()
      expectSnapshot(first.next(), ids: ["b"], changes: ["removed d 0/-"], "limit: one left")
      expectSnapshot(last.next(), ids: ["b"], changes: ["removed d 0/-"], "limitToLast: one left")
      first.expectNoErrors()
      last.expectNoErrors()
    }
  }

  // MARK: - Commits a listener cannot see

  @Test func anUnchangedRewriteRaisesNoSnapshot() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1, "m": ["x": true]]])
      let query = QueryRecorder()
      let queryRegistration = c.addSnapshotListener(query.handler)
      defer { queryRegistration.remove() }
      let document = DocumentRecorder()
      let documentRegistration = c.document("a").addSnapshotListener(document.handler)
      defer { documentRegistration.remove() }
      expectSnapshot(query.next(), ids: ["a"], changes: ["added a -/0"], "first")
      expectDocument(document.next(), path: "c/a", data: ["n": 1, "m": ["x": true]], "first")

      let before = try c.document("a").getDocument().updateTime
      try c.document("a").setData(["n": 1, "m": ["x": true]])
      try c.document("a").setData(["n": 1], merge: true)
      try c.document("a").updateData(["m.x": true])
      let batch = db.batch()
      batch.setData(["m": ["x": true], "n": 1], forDocument: c.document("a"))
      try batch.commit()
      try c.document("missing").delete()  // deleting a missing document changes nothing either
      let after = try c.document("a").getDocument().updateTime
      #expect(before == after, "a rewrite that changes nothing keeps the update time, as in Firestore")
      query.expectNoMore("unchanged rewrites")
      document.expectNoMore("unchanged rewrites")

      // The next visible write is the next snapshot, alone.
      try c.document("b").setData(["n": 2])
      expectSnapshot(query.next(), ids: ["a", "b"], changes: ["added b -/1"], "the next visible write")
      try c.document("a").updateData(["n": 3])
      expectSnapshot(query.next(), ids: ["a", "b"], changes: ["modified a 0/0"], "a real change to a")
      expectDocument(document.next(), path: "c/a", data: ["n": 3, "m": ["x": true]], "a real change to a")
      query.expectNoMore()
      document.expectNoMore("b is another document")
      query.expectNoErrors()
      document.expectNoErrors()
    }
  }

  @Test func aCommitOutsideTheQueryRaisesNoSnapshot() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1, "t": "x"]])
      let recorder = QueryRecorder()
      let registration = c.whereField("t", isEqualTo: "x").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(recorder.next(), ids: ["a"], changes: ["added a -/0"], "first")

      try db.collection("other").document("a").setData(["n": 1, "t": "x"])  // another collection
      try c.document("a").collection("sub").document("s").setData(["t": "x"])  // a subcollection
      try c.document("y").setData(["t": "y"])  // not matching
      try c.document("y").updateData(["n": 5])  // still not matching
      try c.document("y").delete()
      recorder.expectNoMore("nothing the query matches changed")

      try c.document("b").setData(["t": "x"])
      expectSnapshot(recorder.next(), ids: ["a", "b"], changes: ["added b -/1"], "the next visible write")
      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  @Test func aDocumentThatStopsMatchingIsRemoved() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(
        db.collection("c"),
        ["a": ["status": "open", "n": 1], "b": ["status": "open", "n": 2], "c": ["status": "closed", "n": 3]])
      let recorder = QueryRecorder()
      let registration = c.whereField("status", isEqualTo: "open").order(by: "n").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(recorder.next(), ids: ["a", "b"], changes: ["added a -/0", "added b -/1"], "first")

      try c.document("a").updateData(["status": "closed"])
      let removed = recorder.next()
      expectSnapshot(removed, ids: ["b"], changes: ["removed a 0/-"], "a stops matching")
      try c.document("c").updateData(["status": "open"])
      expectSnapshot(recorder.next(), ids: ["b", "c"], changes: ["added c -/1"], "c starts matching")
      try c.document("b").updateData(["n": FieldValue.delete()])
      expectSnapshot(recorder.next(), ids: ["c"], changes: ["removed b 0/-"], "b loses the order-by field")
      try c.document("b").updateData(["n": 4])
      expectSnapshot(recorder.next(), ids: ["c", "b"], changes: ["added b -/1"], "b gets it back")
      try c.document("c").setData(["n": 3])  // replaced without the filtered field
      expectSnapshot(recorder.next(), ids: ["b"], changes: ["removed c 0/-"], "c loses the filtered field")
      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  // MARK: - Query shapes

  @Test func collectionGroupListenerIgnoresDecoys() throws {
    try withDatabase(settings: listenerSettings()) { db in
      try seed(db, paths: ["cg/d1": ["x": 1], "a/1/cg/d2": ["x": 1]])
      let recorder = QueryRecorder(paths: true)
      let registration = db.collectionGroup("cg").addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(
        recorder.next(), ids: ["a/1/cg/d2", "cg/d1"], changes: ["added a/1/cg/d2 -/0", "added cg/d1 -/1"], paths: true,
        "first")

      try seed(
        db,
        paths: [
          "cgx/n1": ["x": 1], "xcg/n2": ["x": 1], "a/1/cgx/n3": ["x": 1], "a/1/xcg/n4": ["x": 1],
          "cg/d1/nested/n5": ["x": 1], "a/cg": ["x": 1], "cg/virtual/nested/n6": ["x": 1],
        ])
      recorder.expectNoMore("decoys cgx, xcg, nested collections and a document named cg")

      // A batch mixing a decoy with a real member shows only the member.
      let batch = db.batch()
      batch.setData(["x": 2], forDocument: db.document("b/2/cg/d3"))
      batch.setData(["x": 2], forDocument: db.document("cgx/n1"))
      batch.deleteDocument(db.document("xcg/n2"))
      try batch.commit()
      expectSnapshot(
        recorder.next(), ids: ["a/1/cg/d2", "b/2/cg/d3", "cg/d1"], changes: ["added b/2/cg/d3 -/1"], paths: true,
        "a member at depth 3")

      try db.document("cg/d1").delete()
      expectSnapshot(
        recorder.next(), ids: ["a/1/cg/d2", "b/2/cg/d3"], changes: ["removed cg/d1 2/-"], paths: true, "delete")
      try db.document("a/1/cg/d2").updateData(["x": 5])
      expectSnapshot(
        recorder.next(), ids: ["a/1/cg/d2", "b/2/cg/d3"], changes: ["modified a/1/cg/d2 0/0"], paths: true, "modify")
      try db.document("a/1/xcg/n4").delete()
      try db.document("a/1/cgx/n3").updateData(["x": 3])
      recorder.expectNoMore("decoys again")
      recorder.expectNoErrors()
    }
  }

  @Test func orQueryListener() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(
        db.collection("c"),
        [
          "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3],
          "doc5": ["a": 1, "b": 1],
        ])
      let recorder = QueryRecorder()
      let query = c.whereFilter(
        Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 1)]))
      let registration = query.addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(
        recorder.next(), ids: ["doc1", "doc2", "doc4", "doc5"],
        changes: ["added doc1 -/0", "added doc2 -/1", "added doc4 -/2", "added doc5 -/3"],
        "first: doc5 matches both branches and appears once")

      try c.document("doc3").updateData(["b": 1])
      expectSnapshot(
        recorder.next(), ids: ["doc1", "doc2", "doc3", "doc4", "doc5"], changes: ["added doc3 -/2"], "doc3 joins")
      try c.document("doc1").updateData(["a": 2])
      expectSnapshot(
        recorder.next(), ids: ["doc2", "doc3", "doc4", "doc5"], changes: ["removed doc1 0/-"], "doc1 leaves")
      try c.document("doc5").updateData(["a": 7])  // still matches through b == 1
      expectSnapshot(
        recorder.next(), ids: ["doc2", "doc3", "doc4", "doc5"], changes: ["modified doc5 3/3"], "doc5 keeps one branch")
      try c.document("doc2").updateData(["a": 1])  // now matches through both
      expectSnapshot(
        recorder.next(), ids: ["doc2", "doc3", "doc4", "doc5"], changes: ["modified doc2 0/0"], "doc2 matches both")
      try c.document("doc6").setData(["a": 5, "b": 5])
      recorder.expectNoMore("doc6 matches neither branch")
      recorder.expectNoErrors()
    }
  }

  @Test func cursorListener() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1], "b": ["n": 2], "c": ["n": 3], "d": ["n": 4], "e": ["n": 5]])
      let recorder = QueryRecorder()
      let registration = c.order(by: "n").start(at: [2]).end(before: [5]).addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectSnapshot(
        recorder.next(), ids: ["b", "c", "d"], changes: ["added b -/0", "added c -/1", "added d -/2"], "first")

      try c.document("f").setData(["n": 3])
      expectSnapshot(recorder.next(), ids: ["b", "c", "f", "d"], changes: ["added f -/2"], "inside the range")
      try c.document("b").updateData(["n": 1])
      expectSnapshot(recorder.next(), ids: ["c", "f", "d"], changes: ["removed b 0/-"], "b moves before start(at:)")
      try c.document("g").setData(["n": 5])  // end(before: 5) excludes it
      try c.document("h").setData(["n": 1.5])  // before the start
      recorder.expectNoMore("outside the cursors")
      try c.document("c").updateData(["n": 2])
      expectSnapshot(recorder.next(), ids: ["c", "f", "d"], changes: ["modified c 0/0"], "the next visible write")
      try c.document("e").updateData(["n": 4.5])
      expectSnapshot(recorder.next(), ids: ["c", "f", "d", "e"], changes: ["added e -/3"], "e moves into the range")
      recorder.expectNoMore()
      recorder.expectNoErrors()

      // start(after:) / end(at:) with a limit.
      let windowed = QueryRecorder()
      let windowedRegistration = c.order(by: "n").start(after: [2]).end(at: [4.5]).limit(to: 2)
        .addSnapshotListener(windowed.handler)
      defer { windowedRegistration.remove() }
      // Order: b1 h1.5 c2 f3 d4 e4.5 g5 → after 2, at most 4.5: f d e → first two.
      expectSnapshot(windowed.next(), ids: ["f", "d"], changes: ["added f -/0", "added d -/1"], "windowed, first")
      try c.document("f").delete()
      expectSnapshot(
        windowed.next(), ids: ["d", "e"], changes: ["removed f 0/-", "added e -/1"], "windowed, f deleted")
      windowed.expectNoMore()
      windowed.expectNoErrors()
    }
  }

  // MARK: - Several listeners

  @Test func severalListenersEachGetTheirOwnView() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1, "t": "x"], "b": ["n": 2, "t": "y"]])
      let byN = QueryRecorder()
      let filtered = QueryRecorder()
      let top = QueryRecorder()
      let same = QueryRecorder()
      let docA = DocumentRecorder()
      let other = DocumentRecorder()
      let registrations: [ListenerRegistration] = [
        c.order(by: "n").addSnapshotListener(byN.handler),
        c.whereField("t", isEqualTo: "x").addSnapshotListener(filtered.handler),
        c.order(by: "n", descending: true).limit(to: 1).addSnapshotListener(top.handler),
        c.order(by: "n").addSnapshotListener(same.handler),
        c.document("a").addSnapshotListener(docA.handler),
        db.document("other/z").addSnapshotListener(other.handler),
      ]
      defer { for registration in registrations { registration.remove() } }
      expectSnapshot(byN.next(), ids: ["a", "b"], changes: ["added a -/0", "added b -/1"], "byN, first")
      expectSnapshot(filtered.next(), ids: ["a"], changes: ["added a -/0"], "filtered, first")
      expectSnapshot(top.next(), ids: ["b"], changes: ["added b -/0"], "top, first")
      expectSnapshot(same.next(), ids: ["a", "b"], changes: ["added a -/0", "added b -/1"], "same query, first")
      expectDocument(docA.next(), path: "c/a", data: ["n": 1, "t": "x"], "doc a, first")
      expectDocument(other.next(), path: "other/z", data: nil, "other/z, first")

      let batch = db.batch()
      batch.setData(["n": 3, "t": "x"], forDocument: c.document("c"))
      batch.updateData(["t": "x"], forDocument: c.document("b"))
      try batch.commit()
      expectSnapshot(byN.next(), ids: ["a", "b", "c"], changes: ["added c -/2", "modified b 1/1"], "byN")
      expectSnapshot(same.next(), ids: ["a", "b", "c"], changes: ["added c -/2", "modified b 1/1"], "same query")
      expectSnapshot(filtered.next(), ids: ["a", "b", "c"], changes: ["added b -/1", "added c -/2"], "filtered")
      expectSnapshot(top.next(), ids: ["c"], changes: ["removed b 0/-", "added c -/0"], "top")
      docA.expectNoMore("a did not change")
      other.expectNoMore("other/z did not change")

      try db.document("other/z").setData(["v": 1])
      expectDocument(other.next(), path: "other/z", data: ["v": 1], "other/z created")
      for recorder in [byN, filtered, top, same] { recorder.expectNoMore("other/z is outside c") }
      docA.expectNoMore("other/z is another document")
      for recorder in [byN, filtered, top, same] { recorder.expectNoErrors() }
      docA.expectNoErrors()
      other.expectNoErrors()
    }
  }

  // MARK: - Document listeners

  @Test func documentListenerSequence() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let ref = db.document("rooms/eros")
      let recorder = DocumentRecorder()
      let registration = ref.addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      expectDocument(recorder.next(), path: "rooms/eros", data: nil, "missing at first")

      try ref.setData(["a": 1])
      expectDocument(recorder.next(), path: "rooms/eros", data: ["a": 1], "created")
      try ref.updateData(["b": 2])
      expectDocument(recorder.next(), path: "rooms/eros", data: ["a": 1, "b": 2], "updated")
      try ref.setData(["b": 2, "a": 1])
      try ref.collection("sub").document("s").setData(["x": 1])
      try db.document("rooms/other").setData(["a": 1])
      recorder.expectNoMore("an unchanged rewrite, a subcollection and a sibling")
      try ref.delete()
      expectDocument(recorder.next(), path: "rooms/eros", data: nil, "deleted")
      try ref.delete()
      recorder.expectNoMore("deleting it again")
      try ref.setData(["c": 3])
      expectDocument(recorder.next(), path: "rooms/eros", data: ["c": 3], "re-created")
      recorder.expectNoMore()
      recorder.expectNoErrors()
    }
  }

  // MARK: - Concurrency and delivery

  @Test func aListenerAddedWhileWritesGoOnSeesEachLaterCommitExactlyOnce() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = db.collection("c")
      let written = Box(0)
      let stopAt = Box(Int.max)
      let writeErrors = Box<[String]>([])
      let writerDone = Signal()
      DispatchQueue.global().async {
        var i = 0
        while i < stopAt.value && i < 20_000 {
          do {
            try c.document(paddedID("w", i)).setData(["i": i])
          } catch {
            writeErrors.mutate { $0.append("\(error)") }
            break
          }
          i += 1
          written.value = i
          usleep(50)
        }
        writerDone.fire()
      }
      #expect(waitUntil { written.value >= 30 }, "the writer made no progress")

      let recorder = QueryRecorder()
      let registration = c.addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      guard let first = recorder.next("the first snapshot") else {
        stopAt.value = 0
        _ = writerDone.wait()
        return
      }
      stopAt.value = written.value + 100
      #expect(writerDone.wait(seconds: 20), "the writer did not finish")
      #expect(writeErrors.value.isEmpty, "writes failed: \(writeErrors.value)")
      let total = written.value

      // The first snapshot holds a prefix of the writes, every one added in order.
      let base = first.count
      #expect(base >= 30 && base <= total)
      expectSnapshot(
        first, ids: (0..<base).map { paddedID("w", $0) },
        changes: (0..<base).map { "added \(paddedID("w", $0)) -/\($0)" },
        "the first snapshot")

      // Then one snapshot per later commit, each adding exactly that document.
      #expect(recorder.waitForCount(1 + total - base, timeout: 10), "one snapshot per commit after the first")
      for i in base..<total {
        guard let snapshot = recorder.next("the snapshot of commit \(i)", timeout: 0.5) else { break }
        #expect(snapshot.count == i + 1, "after commit \(i) the query has \(snapshot.count) documents")
        let changes = describeChanges(snapshot)
        #expect(changes == ["added \(paddedID("w", i)) -/\(i)"], "the snapshot of commit \(i): \(changes)")
      }
      recorder.expectNoMore("every commit was seen exactly once")
      recorder.expectNoErrors()
    }
  }

  @Test func noCallbackAfterRemoveReturnsEvenForEarlierCommits() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = db.collection("c")
      var lateCalls: [Box<Int>] = []
      for round in 0..<8 {
        let removed = Box(false)
        let late = Box(0)
        let recorder = QueryRecorder()
        let registration = c.addSnapshotListener { snapshot, error in
          if removed.value { late.mutate { $0 += 1 } }
          recorder.record(snapshot, error)
          usleep(3000)  // a slow callback, so that deliveries queue up behind it
        }
        _ = recorder.next("round \(round): the first snapshot")
        for i in 0..<5 { try c.document("r\(round)-\(i)").setData(["i": i]) }
        registration.remove()
        removed.value = true
        lateCalls.append(late)
        recorder.expectNoErrors()
      }
      Thread.sleep(forTimeInterval: listenerQuietPeriod)
      let late = lateCalls.map(\.value)
      #expect(late.allSatisfy { $0 == 0 }, "callbacks ran after remove() returned, per round: \(late)")
    }
  }

  @Test func removingFromInsideTheCallbackDropsPendingDeliveries() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = db.collection("c")
      let recorder = QueryRecorder()
      let registrationBox = Box<ListenerRegistration?>(nil)
      let calls = Box(0)
      let removedInside = Signal()
      let secondCommitMade = Signal()
      let registration = c.addSnapshotListener { snapshot, error in
        calls.mutate { $0 += 1 }
        recorder.record(snapshot, error)
        if calls.value == 2 {
          #expect(secondCommitMade.wait(), "the commit of b")
          registrationBox.value?.remove()
          removedInside.fire()
        }
      }
      registrationBox.value = registration
      expectSnapshot(recorder.next(), ids: [], changes: [], "first")

      try c.document("a").setData(["n": 1])
      try c.document("b").setData(["n": 2])  // committed before the callback removes the listener
      secondCommitMade.fire()
      let removed = removedInside.wait()
      #expect(removed, "remove() inside the callback did not return (deadlock?)")
      guard removed else { return }
      expectSnapshot(recorder.next(), ids: ["a"], changes: ["added a -/0"], "the commit of a")
      try c.document("c").setData(["n": 3])
      recorder.expectNoMore("removed inside the callback")
      #expect(calls.value == 2)
      registration.remove()  // removing again is harmless
      recorder.expectNoErrors()
    }
  }

  @Test func callbacksRunOnTheSettingsQueueAndTheFirstIsAsynchronous() throws {
    let queue = DispatchQueue(label: "listener-tests.callbacks")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "callbacks")
    try withDatabase(settings: listenerSettings(queue: queue)) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1]])
      let onQueue = Box<[Bool]>([])
      let recorder = QueryRecorder()
      let documentRecorder = DocumentRecorder()

      // Hold the callback queue: a listener added now may not call back before it is free.
      let gate = DispatchSemaphore(value: 0)
      queue.async { _ = gate.wait(timeout: .now() + 3) }
      let registration = c.addSnapshotListener { snapshot, error in
        onQueue.mutate { $0.append(DispatchQueue.getSpecific(key: key) == "callbacks") }
        recorder.record(snapshot, error)
      }
      defer { registration.remove() }
      let documentRegistration = c.document("a").addSnapshotListener { snapshot, error in
        onQueue.mutate { $0.append(DispatchQueue.getSpecific(key: key) == "callbacks") }
        documentRecorder.record(snapshot, error)
      }
      defer { documentRegistration.remove() }
      #expect(recorder.count == 0, "the first query snapshot was delivered before the queue was free")
      #expect(documentRecorder.count == 0, "the first document snapshot was delivered before the queue was free")
      gate.signal()

      expectSnapshot(recorder.next(), ids: ["a"], changes: ["added a -/0"], "first")
      expectDocument(documentRecorder.next(), path: "c/a", data: ["n": 1], "first")
      try c.document("a").setData(["n": 2])
      expectSnapshot(recorder.next(), ids: ["a"], changes: ["modified a 0/0"], "modified")
      expectDocument(documentRecorder.next(), path: "c/a", data: ["n": 2], "modified")
      #expect(onQueue.value == [true, true, true, true], "callbacks on Settings.dispatchQueue: \(onQueue.value)")
      recorder.expectNoErrors()
      documentRecorder.expectNoErrors()
    }
  }

  /// Even on a concurrent queue: a database hands its callbacks to the queue one block
  /// at a time.
  @Test(arguments: [false, true]) func callbacksRunOneAtATimeInCommitOrder(onAConcurrentQueue: Bool) throws {
    let queue = onAConcurrentQueue ? DispatchQueue(label: "concurrent", attributes: .concurrent) : nil
    try withDatabase(settings: listenerSettings(queue: queue)) { db in
      let c = db.collection("c")
      let active = Box(0)
      let maximum = Box(0)
      let order = Box<[String]>([])
      var registrations: [ListenerRegistration] = []
      defer { for registration in registrations { registration.remove() } }
      let firsts = Box(0)
      for listener in 0..<3 {
        registrations.append(
          c.addSnapshotListener { snapshot, _ in
            active.mutate { $0 += 1 }
            maximum.mutate { $0 = max($0, active.value) }
            if let snapshot {
              if snapshot.documentChanges.isEmpty {
                firsts.mutate { $0 += 1 }
              } else {
                order.mutate { $0.append("\(listener):" + describeChanges(snapshot).joined(separator: ",")) }
              }
            }
            usleep(1000)
            active.mutate { $0 -= 1 }
          })
      }
      #expect(waitUntil { firsts.value == 3 }, "the three first snapshots")
      for i in 0..<10 { try c.document(paddedID("d", i)).setData(["i": i]) }
      #expect(waitUntil { order.value.count == 30 }, "30 snapshots: \(order.value.count)")
      #expect(maximum.value == 1, "callbacks overlapped: \(maximum.value) at once")
      // Commit by commit, and within a commit in the order the listeners were added.
      let expected = (0..<10).flatMap { i in (0..<3).map { "\($0):added \(paddedID("d", i)) -/\(i)" } }
      #expect(order.value == expected)
    }
  }

  @Test func aRunningCallbackDoesNotHoldUpWriters() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = db.collection("c")
      let inCallback = Signal()
      let release = Signal()
      let returned = Signal()
      let hasReturned = Box(false)
      let releasedByTheTest = Box(false)
      let calls = Box(0)
      let registration = c.addSnapshotListener { _, _ in
        calls.mutate { $0 += 1 }
        if calls.value == 2 {
          inCallback.fire()
          // Waits for the test; a writer that waited for this callback would see it return
          // only when this wait gives up.
          releasedByTheTest.value = release.wait(seconds: 20)
          hasReturned.value = true
          returned.fire()
        }
      }
      defer { registration.remove() }
      #expect(waitUntil { calls.value == 1 }, "the first snapshot")
      try c.document("a").setData(["n": 1])
      #expect(inCallback.wait(), "the callback for a")

      // The callback for a runs until released: writes, to the listened collection or not,
      // return while it is still running.
      try c.document("b").setData(["n": 2])
      try db.document("other/x").setData(["n": 3])
      let runningAfterTheWrites = !hasReturned.value
      release.fire()
      #expect(returned.wait(seconds: 30), "the callback for a returned")
      #expect(runningAfterTheWrites, "the writes returned only after the running listener callback did")
      #expect(releasedByTheTest.value, "the callback gave up waiting: the writes waited for it")
      #expect(waitUntil { calls.value == 3 }, "the snapshot of b")
    }
  }

  /// A callback that waits for a write (made here on a helper thread, so that a deadlock
  /// shows as a timeout; made on the callback's own thread it would hang for good), or that
  /// adds a listener, while another thread commits into the listened collection.
  @Test(arguments: ["write", "listen"])
  func aCallbackMayWaitForTheDatabaseWhileAnotherThreadWrites(_ action: String) throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = db.collection("c")
      let calls = Box(0)
      let inCallback = Signal()
      let writerStarted = Signal()
      let finished = Box<Bool?>(nil)
      let callbackDone = Signal()
      let extra = Box<ListenerRegistration?>(nil)
      let writerReturned = Signal()
      let writerDone = Signal()
      let registration = c.addSnapshotListener { _, _ in
        calls.mutate { $0 += 1 }
        guard calls.value == 2 else { return }
        inCallback.fire()
        _ = writerStarted.wait()
        // The other thread's commit into c has returned, or is held up behind this callback
        // (then it does not return within the second; the action below must finish all the
        // same).
        _ = writerReturned.wait(seconds: 1)
        let done = Signal()
        DispatchQueue.global().async {
          if action == "write" {
            try? db.document("log/1").setData(["seen": true])
          } else {
            extra.value = db.document("log/1").addSnapshotListener { _, _ in }
          }
          done.fire()
        }
        finished.value = done.wait(seconds: 2)
        callbackDone.fire()
      }
      defer { registration.remove() }
      #expect(waitUntil { calls.value == 1 }, "the first snapshot")
      try c.document("a").setData(["n": 1])
      #expect(inCallback.wait(), "the callback for a")
      DispatchQueue.global().async {
        writerStarted.fire()
        try? c.document("b").setData(["n": 2])
        writerReturned.fire()
        writerDone.fire()
      }
      #expect(callbackDone.wait(), "the callback returned")
      #expect(
        finished.value == true,
        "a \(action) from a listener callback did not finish within 2 s while another thread committed into the listened collection (deadlock)"
      )
      #expect(writerDone.wait(), "the other thread's write")
      extra.value?.remove()
    }
  }

  @Test func includeMetadataChangesGivesTheSameSnapshots() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["v": "a"]])
      let plain = QueryRecorder()
      let withMetadata = QueryRecorder()
      let document = DocumentRecorder()
      let registrations: [ListenerRegistration] = [
        c.addSnapshotListener(includeMetadataChanges: false, listener: plain.handler),
        c.addSnapshotListener(includeMetadataChanges: true, listener: withMetadata.handler),
        c.document("a").addSnapshotListener(includeMetadataChanges: true, listener: document.handler),
      ]
      defer { for registration in registrations { registration.remove() } }
      expectSnapshot(plain.next(), ids: ["a"], changes: ["added a -/0"], "plain, first")
      expectSnapshot(withMetadata.next(), ids: ["a"], changes: ["added a -/0"], "with metadata, first")
      expectDocument(document.next(), path: "c/a", data: ["v": "a"], "document, first")
      try c.document("a").setData(["v": "a1"])
      expectSnapshot(plain.next(), ids: ["a"], changes: ["modified a 0/0"], "plain")
      let snapshot = withMetadata.next()
      expectSnapshot(snapshot, ids: ["a"], changes: ["modified a 0/0"], "with metadata")
      #expect(
        snapshot.map { $0.documentChanges(includeMetadataChanges: true).map { describeChange($0) } } == [
          "modified a 0/0"
        ]
      )
      expectDocument(document.next(), path: "c/a", data: ["v": "a1"], "document")
      plain.expectNoMore()
      withMetadata.expectNoMore("no metadata-only snapshot: nothing is pending or cached")
      document.expectNoMore("no metadata-only snapshot")
    }
  }

  // MARK: - AsyncThrowingStream

  @Test func snapshotsStreamTakeAFewThenBreak() async throws {
    try await withDatabase(settings: listenerSettings()) { db in
      let c = try seed(db.collection("c"), ["a": ["n": 1]])
      let seen = try await withTimeout(seconds: streamTimeout) {
        var seen: [String] = []
        for try await snapshot in c.order(by: "n").snapshots() {
          seen.append(describeSnapshot(snapshot))
          if seen.count == 3 { break }
          try await c.document(seen.count == 1 ? "b" : "c").setData(["n": seen.count + 1])
        }
        return seen
      }
      #expect(
        seen == [
          "docs [\"a\"] changes [\"added a -/0\"]",
          "docs [\"a\", \"b\"] changes [\"added b -/1\"]",
          "docs [\"a\", \"b\", \"c\"] changes [\"added c -/2\"]",
        ])
      // Writes after the loop ended go nowhere, and do not fail.
      try await c.document("d").setData(["n": 4])

      let documents = try await withTimeout(seconds: streamTimeout) {
        var seen: [String] = []
        // The property form, as Firebase names it.
        for try await snapshot in c.document("e").snapshots {
          seen.append(describeDocument(snapshot))
          if seen.count == 2 { break }
          try await c.document("e").setData(["n": 5])
        }
        return seen
      }
      #expect(documents == ["c/e missing", "c/e {str:[110]:int:5}"])
    }
  }

  // MARK: - Snapshots in sync

  /// The in-sync listener runs after the snapshot listeners a commit reached, even when it
  /// was added first, and after commits that reach none; it is no view, so the views
  /// evaluated a write do not count it.
  @Test func snapshotsInSyncFollowTheListenersOfEachCommit() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let events = Box<[String]>([])
      let inSync = db.addSnapshotsInSyncListener { events.mutate { $0.append("sync") } }
      defer { inSync.remove() }
      #expect(waitUntil { events.value == ["sync"] })
      let document = db.document("c/a").addSnapshotListener { snapshot, _ in
        events.mutate { $0.append("doc \(snapshot?.exists == true)") }
      }
      defer { document.remove() }
      #expect(waitUntil { events.value == ["sync", "doc false"] })
      let evaluated = db.listenerStatistics.viewEvaluations
      try db.document("c/a").setData(["n": 1])
      #expect(waitUntil { events.value == ["sync", "doc false", "doc true", "sync"] })
      #expect(db.listenerStatistics.viewEvaluations == evaluated + 1)
      try db.document("other/b").setData(["n": 1])
      #expect(waitUntil { events.value == ["sync", "doc false", "doc true", "sync", "sync"] })
      inSync.remove()
      try db.document("c/a").setData(["n": 2])
      #expect(waitUntil { events.value.last == "doc true" && events.value.count == 6 })
    }
  }

  // MARK: - Live aggregation

  @Test func liveAggregationListener() throws {
    try withDatabase(settings: listenerSettings()) { db in
      let c = try seed(
        db.collection("c"), ["a": ["kind": "x", "v": 1], "b": ["kind": "x", "v": 2], "z": ["kind": "y", "v": 100]])
      let fields = [AggregateField.count(), AggregateField.sum("v"), AggregateField.average("v")]
      let recorder = AggregateRecorder(fields: fields)
      let registration = c.whereField("kind", isEqualTo: "x").aggregate(fields).addSnapshotListener(recorder.handler)
      defer { registration.remove() }
      func expectResult(_ expected: String, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let snapshot = recorder.next(comment, sourceLocation: sourceLocation) else { return }
        let found = describeAggregate(snapshot, fields)
        #expect(found == expected, "\(comment): \(found), expected \(expected)", sourceLocation: sourceLocation)
      }
      expectResult("count 2 int:2 int:3 double:1.5", "first")

      try c.document("c").setData(["kind": "x", "v": 3])
      expectResult("count 3 int:3 int:6 double:2.0", "a matching document added")
      try db.document("other/a").setData(["kind": "x", "v": 50])
      try c.document("z").updateData(["v": 7])
      try c.document("y").setData(["kind": "y", "v": 9])
      recorder.expectNoMore("unrelated documents changed")
      try c.document("a").updateData(["label": "unrelated field"])
      recorder.expectNoMore("a matching document changed a field the aggregation does not read: same result")
      try c.document("b").updateData(["v": 2.5])
      expectResult("count 3 int:3 double:6.5 double:2.1666666666666665", "a summed value changed")
      try c.document("a").delete()
      expectResult("count 2 int:2 double:5.5 double:2.75", "a matching document deleted")
      try c.document("z").updateData(["kind": "x"])
      expectResult("count 3 int:3 double:12.5 double:4.166666666666667", "a document starts matching")
      recorder.expectNoMore()
      recorder.expectNoErrors()

      // A count alone.
      let counter = AggregateRecorder(fields: [])
      let countRegistration = c.count.addSnapshotListener(counter.handler)
      defer { countRegistration.remove() }
      #expect(counter.next().map { $0.count.intValue } == 4)
      try c.document("w").setData([:])
      #expect(counter.next().map { $0.count.intValue } == 5)
      try c.document("w").setData(["v": 1])
      counter.expectNoMore("the count did not change")
      counter.expectNoErrors()
    }
  }
}

/// The error `withTimeout` throws.
struct ListenerTestTimeout: Error, CustomStringConvertible {
  var seconds: Double
  var description: String { "timed out after \(seconds) s" }
}

/// Runs `body` and fails with a timeout error when it takes longer than `seconds`; the body
/// is cancelled then (an `AsyncThrowingStream` loop ends on cancellation).
func withTimeout<T: Sendable>(
  seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw ListenerTestTimeout(seconds: seconds)
    }
    return value
  }
}
