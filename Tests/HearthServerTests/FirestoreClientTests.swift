import Foundation
import HearthCore
import Testing

@testable import HearthServer

/// Google's own Python client (`google-cloud-firestore`) against a `FirestoreServer`,
/// through `FIRESTORE_EMULATOR_HOST`: its writes, reads, queries, aggregations, listings,
/// batches and errors, as a Python program sees them.
@Suite struct FirestoreClientTests {
  /// A server on a free port over a fresh directory, for `body`.
  func withServer(_ body: (FirestoreServer) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-serve-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = try FirestoreServer(directory: directory, port: 0, durable: false)
    do {
      try await body(server)
    } catch {
      await server.shutdown()
      throw error
    }
    await server.shutdown()
  }

  /// Runs `script` with a client `db` of project `demo` connected to the server; the
  /// lines it prints, as `name: value`.
  func run(_ script: String, on server: FirestoreServer) async throws -> [String: String] {
    let program = """
      os.environ["FIRESTORE_EMULATOR_HOST"] = target
      from google.cloud import firestore
      from google.api_core import exceptions
      db = firestore.Client(project="demo")
      def show(name, value):
          say(f"{name}: {value}")
      def error_of(call):
          try:
              call()
              return "no error"
          except exceptions.GoogleAPICallError as error:
              return f"{type(error).__name__} {error.message}"

      """ + script
    let lines = try await PythonClient.run(program, port: server.port)
    var shown: [String: String] = [:]
    for line in lines {
      guard let separator = line.range(of: ": ") else { continue }
      shown[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
    }
    return shown
  }

  @Test func writesAndReadsAsThePythonClientSeesThem() async throws {
    try await withServer { server in
      let shown = try await run(
        """
        sf = db.document("cities/SF")
        result = sf.set({"name": "San Francisco", "pop": 860000, "tags": ["a"]})
        show("set has update_time", result.update_time is not None)
        sf.set({"state": "CA"}, merge=True)
        sf.update({"pop": firestore.Increment(1), "tags": firestore.ArrayUnion(["b"]), "at": firestore.SERVER_TIMESTAMP})
        snapshot = sf.get()
        show("get", sorted(snapshot.to_dict().items(), key=lambda kv: kv[0])[1:])
        show("server timestamp", type(snapshot.get("at")).__name__)
        show("field mask", sf.get(field_paths=["name"]).to_dict())
        show("missing exists", db.document("cities/nope").get().exists)
        show("update missing", error_of(lambda: db.document("made/for-update").update({"a": 1})))
        show("create existing", error_of(lambda: sf.create({"a": 1})))
        batch = db.batch()
        batch.set(db.document("cities/LA"), {"name": "Los Angeles", "pop": 3900000})
        batch.set(db.document("cities/NY"), {"name": "New York", "pop": 8000000})
        batch.delete(db.document("cities/gone"))
        show("batch results", len(batch.commit()))
        show("get_all", [(s.id, s.exists) for s in db.get_all([db.document("cities/LA"), db.document("cities/nope")])])
        same = sf.set(snapshot.to_dict())
        show("unchanged rewrite keeps update_time", same.update_time == snapshot.update_time)
        """, on: server)
      #expect(shown["set has update_time"] == "True")
      #expect(shown["get"] == "[('name', 'San Francisco'), ('pop', 860001), ('state', 'CA'), ('tags', ['a', 'b'])]")
      #expect(shown["server timestamp"] == "DatetimeWithNanoseconds")
      #expect(shown["field mask"] == "{'name': 'San Francisco'}")
      #expect(shown["missing exists"] == "False")
      #expect(
        shown["update missing"]
          == "NotFound No document to update: projects/demo/databases/(default)/documents/made/for-update")
      #expect(shown["create existing"]?.hasPrefix("AlreadyExists Document already exists: ") == true)
      #expect(shown["batch results"] == "3")
      #expect(shown["get_all"]?.contains("('LA', True)") == true)
      #expect(shown["get_all"]?.contains("('nope', False)") == true)
      #expect(shown["unchanged rewrite keeps update_time"] == "True")
    }
  }

  @Test func queriesAggregationsAndListings() async throws {
    try await withServer { server in
      let shown = try await run(
        """
        from google.cloud.firestore_v1.base_query import FieldFilter, Or
        from google.cloud.firestore_v1 import aggregation
        cities = db.collection("cities")
        for id, pop, state in [("SF", 860000, "CA"), ("LA", 3900000, "CA"), ("NY", 8000000, "NY"), ("TO", 14000000, None)]:
            cities.document(id).set({"pop": pop, "state": state})
        db.document("cities/SF/landmarks/gg").set({"name": "Golden Gate", "pop": 1})
        db.document("ghost/g/landmarks/x").set({"name": "X", "pop": 2})
        def ids(query):
            return [s.id for s in query.stream()]
        show("where", ids(cities.where(filter=FieldFilter("pop", ">", 1000000))))
        show("order limit", ids(cities.order_by("pop", direction=firestore.Query.DESCENDING).limit(2)))
        show("limit_to_last", [s.id for s in cities.order_by("pop").limit_to_last(2).get()])
        show("or", ids(cities.where(filter=Or([FieldFilter("state", "==", "NY"), FieldFilter("pop", "<", 1000000)]))))
        show("in", ids(cities.where(filter=FieldFilter("state", "in", ["CA"]))))
        show("cursor", ids(cities.order_by("pop").start_after({"pop": 860000}).end_at({"pop": 8000000})))
        show("offset", ids(cities.order_by("pop").offset(1).limit(2)))
        show("select", [s.to_dict() for s in cities.order_by("pop").select(["state"]).limit(1).stream()])
        show("group", sorted(s.reference.path for s in db.collection_group("landmarks").stream()))
        count = cities.count(alias="n").get()[0][0]
        show("count", (count.alias, count.value))
        show("sum avg", [(r.alias, r.value) for r in cities.sum("pop").get()[0] + cities.avg("pop").get()[0]])
        show("collections", sorted(c.id for c in db.collections()))
        show("subcollections", [c.id for c in db.document("cities/SF").collections()])
        show("list_documents", [d.id for d in db.collection("ghost").list_documents()])
        db.recursive_delete(cities)
        show("after recursive_delete", (ids(cities), ids(db.collection_group("landmarks"))))
        """, on: server)
      #expect(shown["where"] == "['LA', 'NY', 'TO']")
      #expect(shown["order limit"] == "['TO', 'NY']")
      #expect(shown["limit_to_last"] == "['NY', 'TO']")
      // An inequality in an OR orders by its field (Google's emulator answers the same).
      #expect(shown["or"] == "['SF', 'NY']")
      #expect(shown["in"] == "['LA', 'SF']")
      #expect(shown["cursor"] == "['LA', 'NY']")
      #expect(shown["offset"] == "['LA', 'NY']")
      #expect(shown["select"] == "[{'state': 'CA'}]")
      #expect(shown["group"] == "['cities/SF/landmarks/gg', 'ghost/g/landmarks/x']")
      #expect(shown["count"] == "('n', 4)")
      #expect(shown["sum avg"] == "[('field_1', 26760000), ('field_1', 6690000.0)]")
      #expect(shown["collections"] == "['cities', 'ghost']")
      #expect(shown["subcollections"] == "['landmarks']")
      #expect(shown["list_documents"] == "['g']")
      #expect(shown["after recursive_delete"] == "([], ['x'])")
    }
  }

  @Test func listenersGetEachChangeAsItIsCommitted() async throws {
    try await withServer { server in
      let shown = try await run(
        """
        import threading, time
        from google.cloud.firestore_v1.base_query import FieldFilter
        seen = []
        lock = threading.Lock()
        def record(entry):
            with lock:
                seen.append(entry)
        def wait_for(count):
            deadline = time.time() + 20
            while time.time() < deadline:
                with lock:
                    if len(seen) >= count:
                        return
                time.sleep(0.01)
            raise TimeoutError(f"{count} snapshots expected, {len(seen)} came: {seen}")
        cities = db.collection("cities")
        cities.document("SF").set({"pop": 1})
        def on_query(docs, changes, read_time):
            record(("query", [d.id for d in docs], sorted(f"{c.type.name} {c.document.id}" for c in changes)))
        def on_document(docs, changes, read_time):
            record(("document", [(d.exists, d.to_dict()) for d in docs]))
        query = cities.where(filter=FieldFilter("pop", ">", 0)).order_by("pop").on_snapshot(on_query)
        wait_for(1)
        document = cities.document("LA").on_snapshot(on_document)
        wait_for(2)
        cities.document("LA").set({"pop": 2})
        wait_for(4)
        cities.document("SF").delete()
        wait_for(5)
        cities.document("LA").update({"pop": 0})
        wait_for(7)
        query.unsubscribe()
        document.unsubscribe()
        with lock:
            for index, entry in enumerate(seen):
                show(f"snapshot {index}", entry)
        """, on: server)
      #expect(shown["snapshot 0"] == "('query', ['SF'], ['ADDED SF'])")
      // A missing document's listener gets no snapshot in its list (as from Google's emulator).
      #expect(shown["snapshot 1"] == "('document', [])")
      let afterSet = [shown["snapshot 2"], shown["snapshot 3"]]
      #expect(afterSet.contains("('query', ['SF', 'LA'], ['ADDED LA'])"))
      #expect(afterSet.contains("('document', [(True, {'pop': 2})])"))
      #expect(shown["snapshot 4"] == "('query', ['LA'], ['REMOVED SF'])")
      let afterUpdate = [shown["snapshot 5"], shown["snapshot 6"]]
      #expect(afterUpdate.contains("('query', [], ['REMOVED LA'])"))
      #expect(afterUpdate.contains("('document', [(True, {'pop': 0})])"))
    }
  }

  /// 200 Listen streams at once (the Python client opens one per listener), each sent
  /// its first snapshot and then the commit that changes its query; all freed after.
  @Test func twoHundredListenStreamsAtOnce() async throws {
    try await withServer { server in
      let shown = try await run(
        """
        import threading, time
        lock = threading.Lock()
        sizes = {}
        def listener(n):
            def on_snapshot(docs, changes, read_time):
                with lock:
                    sizes.setdefault(n, []).append(len(docs))
            return on_snapshot
        def wait_for(test):
            deadline = time.time() + 60
            while time.time() < deadline:
                with lock:
                    if test():
                        return True
                time.sleep(0.02)
            return False
        watches = [db.collection("wide").on_snapshot(listener(n)) for n in range(200)]
        show("first snapshots", wait_for(lambda: len(sizes) == 200))
        db.collection("wide").document("one").set({"n": 1})
        show("after the commit", wait_for(lambda: all(s[-1] == 1 for s in sizes.values()) and len(sizes) == 200))
        for watch in watches:
            watch.unsubscribe()
        show("still serving", db.collection("wide").document("one").get().get("n"))
        """, on: server)
      #expect(shown["first snapshots"] == "True")
      #expect(shown["after the commit"] == "True")
      #expect(shown["still serving"] == "1")
      // The streams ended with the client's unsubscribes: their views are gone.
      let store = try server.databases.store(DatabaseName(projectID: "demo", databaseID: "(default)"))
      let deadline = ContinuousClock.now + .seconds(20)
      while store.observers.count > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
      #expect(store.observers.count == 0)
    }
  }

  @Test func eightClientProcessesCountExactlyThroughTransactions() async throws {
    try await withServer { server in
      _ = try await run(#"db.document("counters/c").set({"n": 0})"#, on: server)
      let increment = """
        counter = db.document("counters/c")
        @firestore.transactional
        def increment(transaction):
            snapshot = counter.get(transaction=transaction)
            transaction.update(counter, {"n": snapshot.get("n") + 1})
        for _ in range(10):
            increment(db.transaction())
        show("done", True)
        """
      try await withThrowingTaskGroup(of: [String: String].self) { group in
        for _ in 0..<8 { group.addTask { try await run(increment, on: server) } }
        for try await shown in group { #expect(shown["done"] == "True") }
      }
      let total = try await run(#"show("n", db.document("counters/c").get().get("n"))"#, on: server)
      #expect(total["n"] == "80")
    }
  }

  @Test func partitionsCoverACollectionGroupInOrder() async throws {
    try await withServer { server in
      // Google's own system test (skipped on Google's emulator, which lacks PartitionQuery).
      let shown = try await run(
        """
        import itertools
        parents = itertools.cycle(("", "abc/123/", "def/456/", "ghi/789/"))
        batch = db.batch()
        expected = []
        for i, parent in zip(range(128 * 2 + 127), parents):
            path = parent + f"cg/cg-doc{i:03d}"
            batch.set(db.document(path), {"x": i})
            expected.append(path)
        batch.commit()
        partitions = list(db.collection_group("cg").get_partitions(3))
        found = [s.reference.path for p in partitions for s in p.query().stream()]
        show("partitions", len(partitions))
        show("all in order", found == sorted(expected))
        few = list(db.collection_group("none-here").get_partitions(3))
        show("few", len(few))
        """, on: server)
      #expect(shown["partitions"] == "2")
      #expect(shown["all in order"] == "True")
      #expect(shown["few"] == "1")
    }
  }

  @Test func transactionsAndTheResetEndpoint() async throws {
    try await withServer { server in
      let shown = try await run(
        """
        import urllib.request
        counter = db.document("counters/c")
        counter.set({"n": 0})
        @firestore.transactional
        def increment(transaction):
            snapshot = counter.get(transaction=transaction)
            transaction.update(counter, {"n": snapshot.get("n") + 1})
        for _ in range(3):
            increment(db.transaction())
        show("counter", counter.get().get("n"))
        @firestore.transactional
        def fails(transaction):
            counter.get(transaction=transaction)
            raise ValueError("rollback")
        try:
            fails(db.transaction())
        except ValueError as error:
            show("raised", error)
        show("after rollback", counter.get().get("n"))
        request = urllib.request.Request(
            f"http://{target}/emulator/v1/projects/demo/databases/(default)/documents", method="DELETE")
        with urllib.request.urlopen(request) as response:
            show("reset status", response.status)
        show("after reset", counter.get().exists)
        """, on: server)
      #expect(shown["counter"] == "3")
      #expect(shown["raised"] == "rollback")
      #expect(shown["after rollback"] == "3")
      #expect(shown["reset status"] == "200")
      #expect(shown["after reset"] == "False")
    }
  }
}
