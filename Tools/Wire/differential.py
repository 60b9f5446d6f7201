"""Differential random operations: one seeded sequence of Firestore operations through
Google's Python client against two servers, every answer compared.

    differential.py --seed 1 --ops 300 --a emulator --b 'hearth serve --ephemeral --port {port}'
    differential.py --seed 1 --ops 300 --a 127.0.0.1:8080 --b 127.0.0.1:8080   # A vs A

A server is `emulator` (Google's, started here), a command with `{port}` (started here),
or `host:port` (already running). Each server gets a project ID of its own for the run,
so two runs, or A and B on one server, never see each other's data.

The operations are made from the seed alone, before any runs, so both servers get the
same ones: writes (set, set with merge and merge fields, create, update with field paths,
transforms: increment, server timestamp, array union and remove, delete field), deletes,
batches, transactions (read, then write what was read), get and get_all (missing
documents and repeated paths too), queries (every filter operator, OR and AND, filters and order on
`__name__`, order by over values of every type, cursors of values and of document
snapshots, limit, limit_to_last and offset, collection groups, select), vector searches
(find_nearest over a query's filters, each distance measure, threshold and result field),
count/sum/avg, list_documents, collections(), and errors (compared by
exception class and gRPC code, never by message). Five listeners per server (queries with
a limit, of a collection group, with an OR and a cursor; a whole collection; a document) are
compared after every write, once both have gone quiet.

What legitimately differs is normalized away: update, create and read times are dropped,
a server timestamp (any time after 2020; generated times are before) compares by type
and precision (Firestore's are whole milliseconds),
and document IDs come from the seed (no auto-IDs). The first differing step is printed
with both answers and the operations that led there; the exit status is then 1.
`--plant-difference N` perturbs B's first non-empty read answer from step N on, to show
that a difference is caught.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import secrets
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servers  # noqa: E402

from google.api_core import exceptions as api_exceptions  # noqa: E402
from google.auth.credentials import AnonymousCredentials  # noqa: E402
from google.cloud import firestore  # noqa: E402
from google.cloud.firestore_v1.base_query import And, FieldFilter, Or  # noqa: E402
from google.cloud.firestore_v1.base_vector_query import DistanceMeasure  # noqa: E402
from google.cloud.firestore_v1.vector import Vector  # noqa: E402

COLLECTIONS = ["c0", "c1"]
GROUP = "items"
# Numeric IDs (`__id7__`) too, which Firestore orders before every other ID, by number.
DOC_IDS = [f"d{i}" for i in range(8)] + ["__id7__", "__id-3__"]
FIELDS = ["a", "b", "n", "tags", "m", "s"]
NESTED = ["m.x", "m.y"]
OPERATORS = ["==", "!=", "<", "<=", ">", ">=", "in", "not-in", "array_contains",
             "array_contains_any"]
SERVER_TIME_AFTER = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
# The listeners each server runs (`Side.listen`), compared after every write.
LISTENERS = ["query", "collection", "document", "group", "disjunction"]


# ---- values, made from the seed ---------------------------------------------------------


class Ref:
    """A reference value, made into the client's DocumentReference when it is sent."""

    def __init__(self, path: str):
        self.path = path

    def __repr__(self):
        return f"Ref({self.path!r})"


class Transform:
    """A field transform, made into the client's sentinel when it is sent."""

    def __init__(self, kind: str, arg=None):
        self.kind, self.arg = kind, arg

    def __repr__(self):
        return f"{self.kind}({self.arg!r})" if self.arg is not None else self.kind


class Gen:
    def __init__(self, rng: random.Random):
        self.r = rng

    def doc_path(self, group: bool = False) -> str:
        r = self.r
        choice = r.random()
        if group and choice < 0.35:
            return f"{r.choice(COLLECTIONS)}/{r.choice(DOC_IDS[:4])}/{GROUP}/{r.choice(DOC_IDS[:4])}"
        if group and choice < 0.5:
            return f"{GROUP}/{r.choice(DOC_IDS[:4])}"
        return f"{r.choice(COLLECTIONS)}/{r.choice(DOC_IDS)}"

    def scalar(self):
        r = self.r
        kind = r.choice(
            ["null", "bool", "int", "int", "double", "double", "string", "string", "bytes",
             "time", "geo", "ref", "vector"]
        )
        if kind == "null":
            return None
        if kind == "bool":
            return r.random() < 0.5
        if kind == "int":
            return r.choice([0, 1, -1, 2, 3, 7, 42, -5, 2**53 + 1, -(2**63), 2**63 - 1])
        if kind == "double":
            return r.choice([0.0, -0.0, 1.0, 2.0, 1.5, -2.5, 3.25, float("nan"), float("inf"),
                             float("-inf"), 1e-300, 7.0])
        if kind == "string":
            return r.choice(["", "a", "b", "ab", "B", "é", "z", "aa", "\u00ff", "𝄞", "a\u0000b"])
        if kind == "bytes":
            return r.choice([b"", b"\x00", b"a", b"ab", b"\xff", b"b"])
        if kind == "time":
            return datetime.datetime(
                r.choice([1960, 1970, 2001, 2015]), r.randint(1, 12), r.randint(1, 28),
                r.randint(0, 23), 0, r.randint(0, 59), r.choice([0, 1, 999999]),
                tzinfo=datetime.timezone.utc,
            )
        if kind == "geo":
            return firestore.GeoPoint(r.choice([-90.0, 0.0, 1.5, 45.0]), r.choice([-180.0, 0.0, 2.5]))
        if kind == "vector":
            # Firestore's vector values: ordered by length, then element by element.
            return Vector(r.choice([[1.0], [2.0], [-1.5], [1.0, 2.0], [2.0, 1.0], [1.0, 2.0, 3.0],
                                    [float("inf")], [0.0, -0.0]]))
        return Ref(self.doc_path())

    def value(self, depth: int = 0):
        r = self.r
        p = r.random()
        if depth < 2 and p < 0.12:
            return [self.value(depth + 1) for _ in range(r.randint(0, 3))]
        if depth < 2 and p < 0.2:
            return {r.choice(["x", "y", "z"]): self.value(depth + 1) for _ in range(r.randint(0, 2))}
        return self.scalar()

    def transform(self, allow_delete: bool):
        r = self.r
        kinds = ["inc", "server_time", "union", "remove"] + (["delete"] if allow_delete else [])
        kind = r.choice(kinds)
        if kind == "inc":
            return Transform("inc", r.choice([1, 2, -1, 1.5]))
        if kind in ("union", "remove"):
            return Transform(kind, [self.scalar() for _ in range(r.randint(1, 2))])
        return Transform(kind)

    def field_value(self, allow_delete: bool):
        if self.r.random() < 0.2:
            return self.transform(allow_delete)
        return self.value()

    def data(self, allow_delete: bool = False) -> dict:
        r = self.r
        data = {}
        for field in r.sample(FIELDS, r.randint(1, 4)):
            if field == "tags":
                data[field] = [self.scalar() for _ in range(r.randint(0, 3))]
            elif field == "m" and r.random() < 0.7:
                data[field] = {k: self.field_value(allow_delete) for k in r.sample(["x", "y"], r.randint(1, 2))}
            else:
                data[field] = self.field_value(allow_delete)
        return data

    def update_data(self) -> dict:
        r = self.r
        data = {}
        for path in r.sample(FIELDS + NESTED, r.randint(1, 3)):
            if path.startswith("m.") and "m" in data or path == "m" and any(k.startswith("m.") for k in data):
                continue
            data[path] = self.field_value(allow_delete=True)
        return data

    def write(self) -> dict:
        r = self.r
        kind = r.choice(["set", "set", "merge", "merge_fields", "create", "update", "update", "delete"])
        op = {"kind": kind, "path": self.doc_path(group=True)}
        if kind == "set":
            op["data"] = self.data()
        elif kind == "merge":
            op["data"] = self.data(allow_delete=True)
        elif kind == "merge_fields":
            op["data"] = self.data()
            op["fields"] = sorted(r.sample(sorted(op["data"]), r.randint(1, len(op["data"]))))
        elif kind == "create":
            op["data"] = self.data()
        elif kind == "update":
            op["data"] = self.update_data()
        return op

    def filter(self):
        r = self.r
        if r.random() < 0.08:
            # On the document's name: references (a few of another collection), and plain
            # IDs, which the client makes references in the queried collection.
            op = r.choice(["==", "!=", "<", "<=", ">", ">=", "in", "not-in"])
            def name():
                return r.choice(DOC_IDS) if r.random() < 0.2 else Ref(self.doc_path(group=True))
            value = [name() for _ in range(r.randint(1, 3))] if op in ("in", "not-in") else name()
            return ("f", "__name__", op, value)
        field = r.choice(FIELDS + NESTED)
        op = r.choice(OPERATORS)
        if op in ("in", "not-in", "array_contains_any"):
            value = [self.scalar() for _ in range(r.randint(1, 4))]
        else:
            value = self.scalar()
            # The client refuses null and NaN but with == and !=; keep that for a few.
            while op not in ("==", "!=") and self.is_null_or_nan(value) and r.random() < 0.85:
                value = self.scalar()
        return ("f", field, op, value)

    @staticmethod
    def is_null_or_nan(value) -> bool:
        return value is None or isinstance(value, float) and math.isnan(value)

    def composite(self, depth: int = 0):
        r = self.r
        if depth < 2 and r.random() < 0.25:
            return (r.choice(["or", "and"]), [self.composite(depth + 1) for _ in range(r.randint(2, 3))])
        return self.filter()

    def query(self) -> dict:
        r = self.r
        q = {"group": r.random() < 0.25}
        q["collection"] = GROUP if q["group"] else r.choice(COLLECTIONS + [GROUP])
        q["filters"] = [self.composite() for _ in range(r.choice([0, 0, 1, 1, 2]))]
        q["order"] = [
            (f, r.choice(["ASCENDING", "DESCENDING"]))
            for f in r.sample(FIELDS + NESTED, r.choice([0, 1, 1, 1, 2]))
        ]
        if r.random() < 0.1:
            q["order"].append(("__name__", r.choice(["ASCENDING", "DESCENDING"])))
        if r.random() < 0.3:
            cursor = r.choice(["start_at", "start_after", "end_at", "end_before"])
            if not q["order"] and r.random() < 0.85:  # a cursor of values needs an order
                q["order"] = [(r.choice(FIELDS + NESTED), r.choice(["ASCENDING", "DESCENDING"]))]
            if r.random() < 0.4:
                # Mostly a document of the queried collection: the client refuses others.
                path = self.doc_path(group=q["group"])
                if not q["group"] and r.random() < 0.85:
                    path = f"{q['collection']}/{r.choice(DOC_IDS[:4] if q['collection'] == GROUP else DOC_IDS)}"
                q["cursor"] = (cursor, "snapshot", path)
            else:
                q["cursor"] = (cursor, "values", [self.scalar() for _ in range(max(1, len(q["order"])))])
        limit = r.random()
        if limit < 0.25:
            q["limit"] = r.randint(0, 4)
        elif limit < 0.4:
            q["limit_to_last"] = r.randint(1, 4)
        if r.random() < 0.08:
            q["offset"] = r.randint(1, 3)
        if r.random() < 0.15:
            q["select"] = sorted(r.sample(FIELDS + NESTED, r.randint(0, 2)))
        return q

    def operation(self) -> dict:
        r = self.r
        p = r.random()
        if p < 0.42:
            return self.write()
        if p < 0.47:
            return {"kind": "batch", "writes": [self.write() for _ in range(r.randint(2, 4))]}
        if p < 0.52:
            return {"kind": "transaction", "read": self.doc_path(), "write": self.doc_path(),
                    "field": r.choice(["n", "a"])}
        if p < 0.58:
            return {"kind": "get", "path": self.doc_path(group=True),
                    "fields": sorted(r.sample(FIELDS + NESTED, 2)) if r.random() < 0.2 else None}
        if p < 0.62:
            # In the order drawn, a path drawn twice asked twice (answered once).
            return {"kind": "get_all", "paths": [self.doc_path(group=True) for _ in range(r.randint(1, 4))]}
        if p < 0.83:
            return {"kind": "query", "query": self.query()}
        if p < 0.85:
            # A vector search over the query's filters (a limit beside it is refused).
            q = self.query()
            for key in ("order", "cursor", "limit_to_last", "offset", "select"):
                q.pop(key, None)
            if r.random() < 0.9:
                q.pop("limit", None)
            return {"kind": "nearest", "query": q, "field": r.choice(FIELDS + NESTED),
                    "vector": r.choice([[1.0], [2.0], [1.0, 2.0], [0.5, -1.0], [1.0, 2.0, 3.0], [0.0, 0.0]]),
                    "measure": r.choice(["EUCLIDEAN", "COSINE", "DOT_PRODUCT"]), "limit": r.randint(1, 5),
                    "result": r.choice([None, "dist", "n"]),
                    "threshold": r.choice([None, None, 0.0, 1.0, 2.5])}
        if p < 0.93:
            q = self.query()
            q.pop("select", None)
            aggs = [("count", None)] + [
                (r.choice(["sum", "avg"]), r.choice(FIELDS + NESTED)) for _ in range(r.randint(0, 2))
            ]
            return {"kind": "aggregate", "query": q, "aggregations": aggs}
        if p < 0.96:
            return {"kind": "list_documents",
                    "collection": r.choice(COLLECTIONS + [GROUP, f"c0/{r.choice(DOC_IDS[:4])}/{GROUP}"])}
        return {"kind": "collections", "parent": r.choice([None, f"{r.choice(COLLECTIONS)}/{r.choice(DOC_IDS[:4])}"])}


# ---- sending: placeholders to the client's values ------------------------------------


def to_client(client, value):
    if isinstance(value, Ref):
        return client.document(value.path)
    if isinstance(value, Transform):
        if value.kind == "inc":
            return firestore.Increment(value.arg)
        if value.kind == "server_time":
            return firestore.SERVER_TIMESTAMP
        if value.kind == "union":
            return firestore.ArrayUnion([to_client(client, v) for v in value.arg])
        if value.kind == "remove":
            return firestore.ArrayRemove([to_client(client, v) for v in value.arg])
        return firestore.DELETE_FIELD
    if isinstance(value, list):
        return [to_client(client, v) for v in value]
    if isinstance(value, dict):
        return {k: to_client(client, v) for k, v in value.items()}
    return value


# ---- answers: the client's values to comparable ones ----------------------------------


def norm(value):
    """A value as a comparable, printable structure that keeps Firestore's type."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        if math.isnan(value):
            return ("double", "NaN")
        return ("double", repr(value))
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return ("bytes", value.hex())
    if isinstance(value, datetime.datetime):
        nanos = getattr(value, "nanosecond", None)
        if value >= SERVER_TIME_AFTER:
            whole = (nanos or value.microsecond * 1000) % 1_000_000 == 0
            return ("timestamp", "server time", "whole milliseconds" if whole else "finer")
        return ("timestamp", value.isoformat(), nanos)
    if isinstance(value, firestore.GeoPoint):
        return ("geo", value.latitude, value.longitude)
    if isinstance(value, firestore.DocumentReference):
        return ("ref", value.path)
    if isinstance(value, list):
        return ["array"] + [norm(v) for v in value]
    if isinstance(value, dict):
        return {k: norm(v) for k, v in sorted(value.items())}
    vector = getattr(value, "to_map_value", None)
    return ("other", type(value).__name__, repr(value) if vector is None else repr(vector()))


def norm_agg(value):
    """An aggregation's value; a double is rounded, since sums may add in other orders."""
    if isinstance(value, float) and not math.isnan(value) and not math.isinf(value):
        return ("double", float(f"{value:.9g}"))
    return norm(value)


def snap(snapshot):
    if not snapshot.exists:
        return (snapshot.reference.path, "missing")
    return (snapshot.reference.path, norm(snapshot.to_dict()))


def error(exc: BaseException):
    if isinstance(exc, api_exceptions.GoogleAPICallError):
        code = getattr(exc, "grpc_status_code", None)
        return ("error", type(exc).__name__, code.name if code is not None else None)
    return ("client error", type(exc).__name__)


# ---- executing one operation against one server -----------------------------------------


class Side:
    """One server under test: its client, its project and its listeners' snapshots."""

    def __init__(self, label: str, host: str, project: str):
        self.label = label
        previous = os.environ.get("FIRESTORE_EMULATOR_HOST")
        os.environ["FIRESTORE_EMULATOR_HOST"] = host  # read by the client's constructor
        try:
            self.client = firestore.Client(project=project, credentials=AnonymousCredentials())
        finally:
            if previous is None:
                os.environ.pop("FIRESTORE_EMULATOR_HOST", None)
            else:
                os.environ["FIRESTORE_EMULATOR_HOST"] = previous
        self.lock = threading.Lock()
        self.events: dict[str, list] = {name: [] for name in LISTENERS}
        self.last_event = time.monotonic()
        self.watches = []

    # listeners

    def _record(self, name, value):
        with self.lock:
            events = self.events[name]
            if not events or events[-1] != value:  # a repeat of the same state is no news
                events.append(value)
            self.last_event = time.monotonic()

    def listen(self):
        c = self.client
        targets = {
            "query": c.collection("c0").order_by("a").limit(6),
            "collection": c.collection("c1"),
            "document": c.document("c0/d0"),
            # A collection group, descending, under a range and a limit.
            "group": c.collection_group(GROUP).where(filter=FieldFilter("n", ">", 0))
            .order_by("n", direction="DESCENDING").limit(3),
            # An OR with an array filter, and a cursor.
            "disjunction": c.collection("c0").where(
                filter=Or([FieldFilter("b", "==", True), FieldFilter("tags", "array_contains", "a")])
            ).order_by("s").start_after(["a"]),
        }

        def recorder(name):
            return lambda docs, _changes, _read_time: self._record(name, [snap(d) for d in docs])

        self.watches = [target.on_snapshot(recorder(name)) for name, target in targets.items()]

    def take_events(self):
        with self.lock:
            events = {k: list(v) for k, v in self.events.items()}
            for v in self.events.values():
                del v[:-1]  # keep the latest state, to tell a repeat from news
        return events

    def close(self):
        for w in self.watches:
            try:
                w.unsubscribe()
            except Exception:
                pass
        try:
            self.client.close()
        except Exception:
            pass

    # operations

    def data(self, value):
        return to_client(self.client, value)

    def apply_write(self, target, op):
        ref = self.client.document(op["path"])
        kind = op["kind"]
        if kind == "set":
            target.set(ref, self.data(op["data"]))
        elif kind == "merge":
            target.set(ref, self.data(op["data"]), merge=True)
        elif kind == "merge_fields":
            target.set(ref, self.data(op["data"]), merge=op["fields"])
        elif kind == "create":
            target.create(ref, self.data(op["data"]))
        elif kind == "update":
            target.update(ref, self.data(op["data"]))
        elif kind == "delete":
            target.delete(ref)

    def build_filter(self, f):
        if f[0] == "f":
            _, field, op, value = f
            return FieldFilter(field, op, self.data(value))
        parts = [self.build_filter(p) for p in f[1]]
        return Or(parts) if f[0] == "or" else And(parts)

    def build_query(self, q):
        c = self.client
        query = c.collection_group(q["collection"]) if q["group"] else c.collection(q["collection"])
        for f in q["filters"]:
            query = query.where(filter=self.build_filter(f))
        for field, direction in q["order"]:
            query = query.order_by(field, direction=direction)
        if "cursor" in q:
            method, form, arg = q["cursor"]
            if form == "snapshot":
                snapshot = c.document(arg).get()
                cursor = snapshot if snapshot.exists else {}
                if snapshot.exists:
                    query = getattr(query, method)(cursor)
                else:
                    return None, ("cursor document missing", arg)
            else:
                query = getattr(query, method)([self.data(v) for v in arg][: max(1, len(q["order"]))])
        if "limit" in q:
            query = query.limit(q["limit"])
        if "limit_to_last" in q:
            query = query.limit_to_last(q["limit_to_last"])
        if "offset" in q:
            query = query.offset(q["offset"])
        if "select" in q:
            query = query.select(q["select"])
        return query, None

    def run(self, op):
        """The normalized answer to one operation, an error's class for an error."""
        try:
            return self._run(op)
        except Exception as exc:  # the answer is the error's kind
            return error(exc)

    def _run(self, op):
        c = self.client
        kind = op["kind"]
        if kind in ("set", "merge", "merge_fields", "create", "update", "delete"):
            ref = c.document(op["path"])
            if kind == "set":
                ref.set(self.data(op["data"]))
            elif kind == "merge":
                ref.set(self.data(op["data"]), merge=True)
            elif kind == "merge_fields":
                ref.set(self.data(op["data"]), merge=op["fields"])
            elif kind == "create":
                ref.create(self.data(op["data"]))
            elif kind == "update":
                ref.update(self.data(op["data"]))
            else:
                ref.delete()
            return "ok"
        if kind == "batch":
            batch = c.batch()
            for w in op["writes"]:
                self.apply_write(batch, w)
            return ("ok", len(batch.commit()))
        if kind == "transaction":
            read_ref, write_ref, field = c.document(op["read"]), c.document(op["write"]), op["field"]

            @firestore.transactional
            def body(transaction):
                read = read_ref.get(transaction=transaction)
                value = read.get(field) if read.exists and field in (read.to_dict() or {}) else None
                if isinstance(value, int) and not isinstance(value, bool):
                    transaction.set(write_ref, {field: value + 1, "from": read_ref}, merge=True)
                else:
                    transaction.set(write_ref, {field: 1, "was": value}, merge=True)
                return snap(read)

            return ("committed", body(c.transaction()))
        if kind == "get":
            return snap(c.document(op["path"]).get(field_paths=op["fields"]))
        if kind == "get_all":
            return sorted((snap(s) for s in c.get_all([c.document(p) for p in op["paths"]])), key=repr)
        if kind == "query":
            query, problem = self.build_query(op["query"])
            if problem:
                return problem
            return [snap(s) for s in query.get()]
        if kind == "nearest":
            query, problem = self.build_query(op["query"])
            if problem:
                return problem
            search = query.find_nearest(
                op["field"], Vector(op["vector"]), op["limit"], DistanceMeasure[op["measure"]],
                distance_result_field=op["result"], distance_threshold=op["threshold"])
            return [snap(s) for s in search.get()]
        if kind == "aggregate":
            query, problem = self.build_query(op["query"])
            if problem:
                return problem
            agg = None
            for i, (name, field) in enumerate(op["aggregations"]):
                alias = f"{name}_{i}"
                if agg is None:
                    agg = getattr(query, name)(*(() if field is None else (field,)), alias=alias)
                else:
                    agg = getattr(agg, name)(*(() if field is None else (field,)), alias=alias)
            results = agg.get()
            return sorted((r.alias, norm_agg(r.value)) for row in results for r in row)
        if kind == "list_documents":
            return sorted(d.path for d in c.collection(op["collection"]).list_documents())
        if kind == "collections":
            parent = c.document(op["parent"]) if op["parent"] else c
            return sorted(col.id for col in parent.collections())
        raise ValueError(kind)


WRITES = {"set", "merge", "merge_fields", "create", "update", "delete", "batch", "transaction"}
READS = {"get", "get_all", "query", "nearest", "aggregate", "list_documents", "collections"}


def perturb(answer):
    """B's answer made different on purpose (--plant-difference)."""
    if isinstance(answer, list) and answer:
        return answer[:-1]
    if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], dict) and answer[1]:
        data = dict(answer[1])
        data.pop(sorted(data)[0])
        return (answer[0], data)
    return None


def wait_quiet(sides, quiet: float, limit: float):
    """Waits until no listener of either side has had news for `quiet` seconds, counted
    from now at the earliest (the news of a write just made may still be on its way)."""
    start = time.monotonic()
    deadline = start + limit
    while time.monotonic() < deadline:
        now = time.monotonic()
        if all(now - max(s.last_event, start) >= quiet for s in sides):
            return
        time.sleep(quiet / 4)


def show(op) -> str:
    text = repr(op)
    return text if len(text) < 600 else text[:600] + "…"


def self_test(args) -> int:
    """Runs this script three times on server A alone (B is A under another project)."""
    import subprocess

    base = [sys.executable, os.path.abspath(__file__), "--seed", str(args.seed), "--ops",
            str(args.ops)]
    if args.a_spec or args.a_command or args.a_host:
        a = args.a_spec or args.a_command or args.a_host
        base += ["--a", a]
    cases = [
        ("A against A", [], 0),
        ("a planted difference in a read", ["--plant-difference", "5"], 1),
        ("a planted difference in a listener", ["--plant-listener-difference", "5"], 1),
    ]
    failures = 0
    for name, extra, expected in cases:
        completed = subprocess.run(base + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ok = completed.returncode == expected
        failures += not ok
        last = [line for line in completed.stdout.splitlines() if line.strip()][-1:]
        print(f"{'ok' if ok else 'FAILED'}: {name}: exit {completed.returncode} (expected {expected})"
              + (f": {last[0][:160]}" if last else ""))
        if not ok:
            sys.stdout.write(completed.stdout)
    print(f"differential self-test: {len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ops", type=int, default=200)
    servers.add_server_args(parser, "a", servers.EMULATOR_COMMAND)
    servers.add_server_args(parser, "b", None)
    parser.add_argument("--no-listeners", action="store_true")
    parser.add_argument("--quiet-ms", type=float, default=60.0,
                        help="a listener is settled after this long without news")
    parser.add_argument("--plant-difference", type=int, metavar="STEP",
                        help="perturb B's first non-empty read answer from STEP on")
    parser.add_argument("--plant-listener-difference", type=int, metavar="STEP",
                        help="drop B's listener snapshots after the first write from STEP on")
    parser.add_argument("--history", type=int, default=25, help="operations shown before a difference")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--self-test", action="store_true",
                        help="A against itself must show no difference, and a planted "
                        "difference in a read and in a listener must each be caught")
    args = parser.parse_args()
    if args.self_test:
        return self_test(args)

    a = servers.server_from(args, "a")
    b = servers.server_from(args, "b")
    if b is None:  # A vs A: the same server, another project
        b = servers.Server("B", host=None)
        b.same_as = a
    rng = random.Random(args.seed)
    gen = Gen(rng)
    ops = [gen.operation() for _ in range(args.ops)]

    started = []
    try:
        for server in (a, b):
            if getattr(server, "same_as", None):
                continue
            server.start()
            started.append(server)
        if getattr(b, "same_as", None):
            b.host = a.host
        run_id = secrets.token_hex(3)
        sides = [
            Side("A", a.host, f"diff-{args.seed}-a-{run_id}"),
            Side("B", b.host, f"diff-{args.seed}-b-{run_id}"),
        ]
        print(f"differential: seed {args.seed}, {args.ops} operations; "
              f"A {a.host} ({sides[0].client.project}), B {b.host} ({sides[1].client.project})",
              flush=True)
        if not args.no_listeners:
            for side in sides:
                side.listen()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not all(
                all(s.events.values()) for s in sides
            ):
                time.sleep(0.02)
            wait_quiet(sides, 0.2, 5)
        t0 = time.monotonic()
        planted = False
        planted_listener = False
        counts = {}
        snapshots = 0
        retries = 0
        for step, op in enumerate(ops):
            answers = [side.run(op) for side in sides]
            if (args.plant_difference is not None and not planted and step >= args.plant_difference
                    and op["kind"] in READS and perturb(answers[1]) is not None):
                answers[1] = perturb(answers[1])
                planted = True
                print(f"(planted a difference in B's answer at step {step})")
            counts[op["kind"]] = counts.get(op["kind"], 0) + 1
            if args.verbose:
                print(f"{step}: {show(op)}\n    -> {answers[0]!r}")
            label = f"step {step}: {op['kind']}"
            if answers[0] == answers[1] and op["kind"] in WRITES and not args.no_listeners:
                quiet = args.quiet_ms / 1000
                wait_quiet(sides, quiet, 5)
                events = [s.take_events() for s in sides]
                if (args.plant_listener_difference is not None and not planted_listener
                        and step >= args.plant_listener_difference
                        and any(len(v) > 1 for v in events[1].values())):
                    events[1] = {k: v[:1] for k, v in events[1].items()}
                    planted_listener = True
                    print(f"(planted a difference in B's listener snapshots at step {step})")
                if events[0] != events[1]:  # a slow listener gets one more chance
                    retries += 1
                    wait_quiet(sides, 1.0, 10)
                    late = [s.take_events() for s in sides]
                    for e, l in zip(events, late):
                        for k in e:
                            e[k] += [x for x in l[k][1:]]
                snapshots += sum(len(v) - 1 for v in events[0].values())
                if events[0] != events[1]:
                    answers = [events[0], events[1]]
                    label = f"step {step}: the listeners' snapshots after {op['kind']}"
            if answers[0] != answers[1]:
                print(f"\nDIFFERENCE at {label}")
                first = max(0, step - args.history)
                print(f"operations {first}..{step} (of seed {args.seed}):")
                for i in range(first, step + 1):
                    print(f"  {i}: {show(ops[i])}")
                print(f"A answered: {answers[0]!r}")
                print(f"B answered: {answers[1]!r}")
                for server in started:
                    if server.process is not None and server.process.poll() is not None:
                        print(f"server {server.label} had exited ({server.process.returncode}):")
                        print(server.log_tail())
                return 1
        seconds = time.monotonic() - t0
        summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"no difference in {args.ops} operations ({summary}; "
              f"{snapshots} listener snapshots, {retries} waits for a slow listener) in {seconds:.1f}s")
        return 0
    finally:
        for side in locals().get("sides", []):
            side.close()
        for server in started:
            server.stop()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
