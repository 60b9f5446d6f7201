"""Firestore protobuf messages built with Google's Python client (google-cloud-firestore's
own generated `_pb` classes), for HearthServerTests' wire tests.

  wire_cases.py cases              every case as a JSON line: name, type, the bytes
                                   Python serializes (deterministic), and, for a case
                                   with unknown fields, the bytes without them
  wire_cases.py check              reads JSON lines {name, type, hex} (Swift's encoding
                                   of each case) from stdin, parses each with the case's
                                   class, and prints {name, equal, error} per line
  wire_cases.py exchanges FILE     the request of every `req` line of a recording
                                   (json_format JSON of real client requests, in this
                                   package's field names: `from_` is StructuredQuery's
                                   `from`) as {method, index, type, hex}

Exits 3 when the client package cannot be imported: the tests fail on it, never skip.
"""

import base64
import json
import math
import struct
import sys

try:
    from google.cloud.firestore_v1.types import (
        aggregation_result,
        common,
        document,
        firestore,
        query,
        write,
    )
    from google.protobuf import json_format
    from google.protobuf import timestamp_pb2
    from google.rpc import status_pb2
    from google.type import latlng_pb2
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"google-cloud-firestore is not importable: {error}", file=sys.stderr)
    sys.exit(3)

DB = "projects/demo-proj/databases/(default)"
DOCS = DB + "/documents"

Value = document.Value.pb()
Document = document.Document.pb()
ArrayValue = document.ArrayValue.pb()
MapValue = document.MapValue.pb()
StructuredQuery = query.StructuredQuery.pb()
StructuredAggregationQuery = query.StructuredAggregationQuery.pb()
Cursor = query.Cursor.pb()
Write = write.Write.pb()
WriteResult = write.WriteResult.pb()
DocumentTransform = write.DocumentTransform.pb()
FieldTransform = DocumentTransform.FieldTransform
DocumentMask = common.DocumentMask.pb()
Precondition = common.Precondition.pb()
TransactionOptions = common.TransactionOptions.pb()
AggregationResult = aggregation_result.AggregationResult.pb()


class Ref(str):
    """A reference_value: a path under this database's documents."""


def ts(seconds, nanos=0):
    return timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)


def V(x):
    """A Value from a Python value (a tuple of two floats is a geo point)."""
    if isinstance(x, Value):
        return x
    if x is None:
        return Value(null_value=0)
    if isinstance(x, bool):
        return Value(boolean_value=x)
    if isinstance(x, int):
        return Value(integer_value=x)
    if isinstance(x, float):
        return Value(double_value=x)
    if isinstance(x, Ref):
        return Value(reference_value=DOCS + "/" + x)
    if isinstance(x, str):
        return Value(string_value=x)
    if isinstance(x, bytes):
        return Value(bytes_value=x)
    if isinstance(x, timestamp_pb2.Timestamp):
        return Value(timestamp_value=x)
    if isinstance(x, tuple):
        return Value(geo_point_value=latlng_pb2.LatLng(latitude=x[0], longitude=x[1]))
    if isinstance(x, list):
        return Value(array_value=ArrayValue(values=[V(e) for e in x]))
    if isinstance(x, dict):
        m = MapValue()
        for k, v in x.items():
            m.fields[k].CopyFrom(V(v))
        return Value(map_value=m)
    raise TypeError(x)


def doc(path, fields, create=None, update=None):
    d = Document(name=DOCS + "/" + path)
    for k, v in fields.items():
        d.fields[k].CopyFrom(V(v))
    if create is not None:
        d.create_time.CopyFrom(create)
    if update is not None:
        d.update_time.CopyFrom(update)
    return d


def fref(path):
    return StructuredQuery.FieldReference(field_path=path)


def ffilter(path, op, value):
    return StructuredQuery.Filter(
        field_filter=StructuredQuery.FieldFilter(field=fref(path), op=op, value=V(value))
    )


def ufilter(path, op):
    return StructuredQuery.Filter(unary_filter=StructuredQuery.UnaryFilter(field=fref(path), op=op))


def composite(op, filters):
    return StructuredQuery.Filter(
        composite_filter=StructuredQuery.CompositeFilter(op=op, filters=filters)
    )


def structured(collection, all_descendants=False, **fields):
    q = StructuredQuery(**fields)
    selector = q.from_.add()
    if collection:
        selector.collection_id = collection
    if all_descendants:
        selector.all_descendants = True
    return q


def with_unknown(message, raw):
    """`message` with unknown fields `raw` appended, parsed back (upb keeps them)."""
    copy = type(message)()
    copy.ParseFromString(message.SerializeToString(deterministic=True) + raw)
    return copy


# Unknown fields of every wire type: varint 900, fixed64 901, length-delimited 902 (an
# embedded message shape), fixed32 903.
UNKNOWN = (
    bytes([0xA0, 0x38, 0x96, 0x01])
    + bytes([0xA9, 0x38]) + struct.pack("<d", 1.5)
    + bytes([0xB2, 0x38, 0x02, 0x08, 0x01])
    + bytes([0xBD, 0x38]) + struct.pack("<I", 7)
)

FF = StructuredQuery.FieldFilter.Operator
UF = StructuredQuery.UnaryFilter.Operator
CF = StructuredQuery.CompositeFilter.Operator
ASC = StructuredQuery.Direction.ASCENDING
DESC = StructuredQuery.Direction.DESCENDING


def cases():
    """(name, type, message) for every case; the Swift tests hold the same names."""
    c = []

    def add(name, type_name, message):
        c.append((name, type_name, message))

    # The Value family.
    add("value-null", "Value", V(None))
    add("value-true", "Value", V(True))
    add("value-false", "Value", V(False))
    add("value-int-zero", "Value", V(0))
    add("value-int-min", "Value", V(-(2**63)))
    add("value-int-max", "Value", V(2**63 - 1))
    add("value-int-minus-one", "Value", V(-1))
    add("value-double-nan", "Value", V(math.nan))
    add("value-double-negative-zero", "Value", V(-0.0))
    add("value-double-zero", "Value", V(0.0))
    add("value-double-infinity", "Value", V(math.inf))
    add("value-double-negative-infinity", "Value", V(-math.inf))
    add("value-double-tiny", "Value", V(5e-324))
    add("value-double-pi", "Value", V(3.141592653589793))
    add("value-timestamp-nanos", "Value", V(ts(1764410400, 123456789)))
    add("value-timestamp-epoch", "Value", V(ts(0, 0)))
    add("value-timestamp-min", "Value", V(ts(-62135596800, 0)))
    add("value-timestamp-max", "Value", V(ts(253402300799, 999999999)))
    add("value-timestamp-before-epoch", "Value", V(ts(-1, 5)))
    add("value-string-empty", "Value", V(""))
    add("value-string-unicode", "Value", V("h\u00e9llo \U0001F525 \u0000 e\u0301"))
    add("value-bytes-empty", "Value", V(b""))
    add("value-bytes", "Value", V(bytes([0, 1, 0x7F, 0x80, 0xFF])))
    add("value-reference", "Value", V(Ref("users/alice/posts/p1")))
    add("value-geo-point", "Value", V((37.7749, -122.4194)))
    add("value-geo-point-zero", "Value", V((0.0, 0.0)))
    add("value-geo-point-negative-zero", "Value", V((-0.0, 180.0)))
    add("value-array-empty", "Value", V([]))
    add("value-array-mixed", "Value", V([1, 2.5, "x", None, {"k": [True]}, b"\x00"]))
    add("value-map-empty", "Value", V({}))
    add(
        "value-map-nested",
        "Value",
        V({
            "": "empty key",
            "\u00e9": 1,
            "\U0001F600": {"deep": {"deeper": [1, {"deepest": None}]}},
            "b": 2,
            "a": 3,
            "Z": 4,
            "aa": 5,
            "a.b": 6,
            "`q`": 7,
        }),
    )
    add("value-unknown-fields", "Value", with_unknown(V({"x": with_unknown(V(1), UNKNOWN)}), UNKNOWN))

    # Documents and masks.
    add(
        "document-full",
        "Document",
        doc(
            "users/alice",
            {"name": "Alice", "age": 30, "tags": ["a", "b"], "address": {"city": "Madrid"}},
            ts(1764410400, 1000),
            ts(1764410401, 999999000),
        ),
    )
    add("document-empty", "Document", doc("c/d", {}))
    add("document-deep", "Document", doc("a/b/c/d/e/f", {"x": Ref("a/b")}))
    add("mask", "DocumentMask", DocumentMask(field_paths=["a", "a.b", "`x.y`.z", "`with space`", "__name__"]))
    add("precondition-exists", "Precondition", Precondition(exists=True))
    add("precondition-not-exists", "Precondition", Precondition(exists=False))
    add("precondition-update-time", "Precondition", Precondition(update_time=ts(1764410400, 5000)))

    # Writes.
    every_transform = [
        FieldTransform(field_path="t", set_to_server_value=FieldTransform.ServerValue.REQUEST_TIME),
        FieldTransform(field_path="n.i", increment=V(1)),
        FieldTransform(field_path="n.d", increment=V(-2.5)),
        FieldTransform(field_path="max", maximum=V(10)),
        FieldTransform(field_path="min", minimum=V(-1.0)),
        FieldTransform(field_path="`a b`", append_missing_elements=ArrayValue(values=[V(1), V("x")])),
        FieldTransform(field_path="r", remove_all_from_array=ArrayValue(values=[V(None), V(2)])),
    ]
    add("write-set", "Write", Write(update=doc("cities/SF", {"pop": 860000, "name": "San Francisco"})))
    add(
        "write-patch",
        "Write",
        Write(
            update=doc("cities/SF", {"pop": 1, "a": {"b": 2}}),
            update_mask=DocumentMask(field_paths=["pop", "a.b", "gone"]),
            current_document=Precondition(exists=True),
        ),
    )
    add("write-create", "Write", Write(update=doc("cities/LA", {"x": 1}), current_document=Precondition(exists=False)))
    add("write-delete", "Write", Write(delete=DOCS + "/cities/SF"))
    add(
        "write-delete-update-time",
        "Write",
        Write(delete=DOCS + "/cities/SF", current_document=Precondition(update_time=ts(1764410400, 123000))),
    )
    add(
        "write-update-transforms",
        "Write",
        Write(
            update=doc("cities/SF", {"x": 1}),
            update_mask=DocumentMask(field_paths=["x"]),
            update_transforms=every_transform,
            current_document=Precondition(exists=True),
        ),
    )
    add(
        "write-transform",
        "Write",
        Write(transform=DocumentTransform(document=DOCS + "/cities/SF", field_transforms=every_transform)),
    )
    add("write-result", "WriteResult", WriteResult(update_time=ts(1764410400, 1000), transform_results=[V(ts(1, 0)), V(5)]))
    add("write-result-empty", "WriteResult", WriteResult())

    # Commits and batch writes.
    add(
        "commit-request",
        "CommitRequest",
        firestore.CommitRequest.pb()(
            database=DB,
            writes=[Write(update=doc("cities/SF", {"pop": 1})), Write(delete=DOCS + "/cities/LA")],
        ),
    )
    add(
        "commit-request-unknown-fields",
        "CommitRequest",
        with_unknown(
            firestore.CommitRequest.pb()(
                database=DB,
                writes=[
                    with_unknown(Write(update=with_unknown(doc("cities/SF", {"pop": 1}), UNKNOWN)), UNKNOWN),
                    Write(delete=DOCS + "/cities/LA"),
                ],
            ),
            UNKNOWN,
        ),
    )
    add(
        "commit-request-transaction",
        "CommitRequest",
        firestore.CommitRequest.pb()(database=DB, writes=[], transaction=b"\x11\x4c\x00\xff"),
    )
    add(
        "commit-response",
        "CommitResponse",
        firestore.CommitResponse.pb()(
            write_results=[WriteResult(update_time=ts(1764410400, 686916000)), WriteResult()],
            commit_time=ts(1764410400, 686916000),
        ),
    )
    add(
        "batch-write-request",
        "BatchWriteRequest",
        firestore.BatchWriteRequest.pb()(
            database=DB,
            writes=[Write(delete=DOCS + "/a/b")],
            labels={"b": "2", "a": "1", "\u00e9": "3"},
        ),
    )
    add(
        "batch-write-response",
        "BatchWriteResponse",
        firestore.BatchWriteResponse.pb()(
            write_results=[WriteResult(update_time=ts(5, 0)), WriteResult()],
            status=[status_pb2.Status(), status_pb2.Status(code=6, message="Document already exists: a/b")],
        ),
    )

    # Reads.
    add(
        "batch-get-request-transaction",
        "BatchGetDocumentsRequest",
        firestore.BatchGetDocumentsRequest.pb()(
            database=DB,
            documents=[DOCS + "/cities/SF", DOCS + "/cities/LA"],
            mask=DocumentMask(field_paths=["pop"]),
            transaction=b"tx",
        ),
    )
    add(
        "batch-get-request-new-read-only",
        "BatchGetDocumentsRequest",
        firestore.BatchGetDocumentsRequest.pb()(
            database=DB,
            documents=[DOCS + "/cities/SF"],
            new_transaction=TransactionOptions(read_only=TransactionOptions.ReadOnly(read_time=ts(100, 0))),
        ),
    )
    add(
        "batch-get-request-new-read-write",
        "BatchGetDocumentsRequest",
        firestore.BatchGetDocumentsRequest.pb()(
            database=DB,
            documents=[DOCS + "/cities/SF"],
            new_transaction=TransactionOptions(read_write=TransactionOptions.ReadWrite(retry_transaction=b"old")),
        ),
    )
    add(
        "batch-get-request-read-time",
        "BatchGetDocumentsRequest",
        firestore.BatchGetDocumentsRequest.pb()(database=DB, documents=[DOCS + "/a/b"], read_time=ts(7, 8000)),
    )
    add(
        "batch-get-response-found",
        "BatchGetDocumentsResponse",
        firestore.BatchGetDocumentsResponse.pb()(
            found=doc("cities/SF", {"pop": 1}, ts(1, 0), ts(2, 0)), read_time=ts(3, 0)
        ),
    )
    add(
        "batch-get-response-missing",
        "BatchGetDocumentsResponse",
        firestore.BatchGetDocumentsResponse.pb()(missing=DOCS + "/cities/XX", read_time=ts(3, 0)),
    )
    add(
        "batch-get-response-transaction",
        "BatchGetDocumentsResponse",
        firestore.BatchGetDocumentsResponse.pb()(transaction=b"new-tx"),
    )
    add(
        "get-document-request",
        "GetDocumentRequest",
        firestore.GetDocumentRequest.pb()(
            name=DOCS + "/cities/SF", mask=DocumentMask(field_paths=["a"]), transaction=b"t"
        ),
    )
    add(
        "get-document-request-read-time",
        "GetDocumentRequest",
        firestore.GetDocumentRequest.pb()(name=DOCS + "/cities/SF", read_time=ts(9, 0)),
    )
    add(
        "list-documents-request",
        "ListDocumentsRequest",
        firestore.ListDocumentsRequest.pb()(
            parent=DOCS + "/cities/SF",
            collection_id="landmarks",
            page_size=20,
            page_token="next",
            order_by="name",
            mask=DocumentMask(),
            read_time=ts(10, 0),
            show_missing=True,
        ),
    )
    add(
        "list-documents-request-root",
        "ListDocumentsRequest",
        firestore.ListDocumentsRequest.pb()(parent=DOCS, collection_id="cities", transaction=b"t"),
    )
    add(
        "list-documents-response",
        "ListDocumentsResponse",
        firestore.ListDocumentsResponse.pb()(
            documents=[doc("cities/SF", {"a": 1}), doc("cities/LA", {})], next_page_token="tok"
        ),
    )
    add(
        "list-collection-ids-request",
        "ListCollectionIdsRequest",
        firestore.ListCollectionIdsRequest.pb()(
            parent=DOCS + "/cities/SF", page_size=5, page_token="p", read_time=ts(11, 0)
        ),
    )
    add(
        "list-collection-ids-request-root",
        "ListCollectionIdsRequest",
        firestore.ListCollectionIdsRequest.pb()(parent=DOCS),
    )
    add(
        "list-collection-ids-response",
        "ListCollectionIdsResponse",
        firestore.ListCollectionIdsResponse.pb()(collection_ids=["cities", "\u00e9"], next_page_token="n"),
    )

    # Document requests.
    create_document = Document()
    create_document.fields["a"].CopyFrom(V(1))
    create_document.fields["b"].CopyFrom(V({"c": "d"}))
    add(
        "create-document-request",
        "CreateDocumentRequest",
        firestore.CreateDocumentRequest.pb()(
            parent=DOCS + "/users/alice",
            collection_id="posts",
            document_id="p1",
            document=create_document,
            mask=DocumentMask(field_paths=["a"]),
        ),
    )
    add(
        "update-document-request",
        "UpdateDocumentRequest",
        firestore.UpdateDocumentRequest.pb()(
            document=doc("users/alice", {"a": 2}),
            update_mask=DocumentMask(field_paths=["a", "b"]),
            mask=DocumentMask(field_paths=["a"]),
            current_document=Precondition(update_time=ts(12, 13000)),
        ),
    )
    add(
        "update-document-request-set",
        "UpdateDocumentRequest",
        firestore.UpdateDocumentRequest.pb()(document=doc("users/alice", {"a": 2})),
    )
    add(
        "delete-document-request",
        "DeleteDocumentRequest",
        firestore.DeleteDocumentRequest.pb()(name=DOCS + "/users/alice", current_document=Precondition(exists=True)),
    )

    # Transactions.
    add("begin-transaction-request", "BeginTransactionRequest", firestore.BeginTransactionRequest.pb()(database=DB))
    add(
        "begin-transaction-request-read-only",
        "BeginTransactionRequest",
        firestore.BeginTransactionRequest.pb()(
            database=DB, options=TransactionOptions(read_only=TransactionOptions.ReadOnly(read_time=ts(14, 0)))
        ),
    )
    add(
        "begin-transaction-request-read-only-latest",
        "BeginTransactionRequest",
        firestore.BeginTransactionRequest.pb()(
            database=DB, options=TransactionOptions(read_only=TransactionOptions.ReadOnly())
        ),
    )
    add(
        "begin-transaction-request-retry",
        "BeginTransactionRequest",
        firestore.BeginTransactionRequest.pb()(
            database=DB, options=TransactionOptions(read_write=TransactionOptions.ReadWrite(retry_transaction=b"r"))
        ),
    )
    add(
        "begin-transaction-response",
        "BeginTransactionResponse",
        firestore.BeginTransactionResponse.pb()(transaction=b"\x00\x01tx"),
    )
    add("rollback-request", "RollbackRequest", firestore.RollbackRequest.pb()(database=DB, transaction=b"tx"))

    # Queries.
    every_operator = composite(
        CF.AND,
        [
            ffilter("lt", FF.LESS_THAN, 1),
            ffilter("le", FF.LESS_THAN_OR_EQUAL, 2.5),
            ffilter("gt", FF.GREATER_THAN, "b"),
            ffilter("ge", FF.GREATER_THAN_OR_EQUAL, ts(5, 0)),
            ffilter("eq", FF.EQUAL, {"m": 1}),
            ffilter("ne", FF.NOT_EQUAL, False),
            ffilter("tags", FF.ARRAY_CONTAINS, "x"),
            ffilter("in", FF.IN, [1, 2]),
            ffilter("any", FF.ARRAY_CONTAINS_ANY, ["a", None]),
            ffilter("nin", FF.NOT_IN, [3]),
            ffilter("__name__", FF.GREATER_THAN, Ref("cities/A")),
            composite(CF.OR, [ufilter("n", UF.IS_NAN), ufilter("z", UF.IS_NULL)]),
            ufilter("`a b`.c", UF.IS_NOT_NAN),
            ufilter("nn", UF.IS_NOT_NULL),
        ],
    )
    full = structured(
        "cities",
        select=StructuredQuery.Projection(fields=[fref("name"), fref("`a b`")]),
        where=every_operator,
        order_by=[
            StructuredQuery.Order(field=fref("pop"), direction=DESC),
            StructuredQuery.Order(field=fref("__name__"), direction=ASC),
        ],
        start_at=Cursor(values=[V(10), V(Ref("cities/B"))], before=True),
        end_at=Cursor(values=[V(1)], before=False),
        offset=3,
    )
    full.limit.value = 10
    add(
        "run-query-request-full",
        "RunQueryRequest",
        firestore.RunQueryRequest.pb()(parent=DOCS, structured_query=full, transaction=b"tx"),
    )
    add(
        "run-query-request-simple",
        "RunQueryRequest",
        firestore.RunQueryRequest.pb()(
            parent=DOCS, structured_query=structured("cities", where=ffilter("pop", FF.GREATER_THAN, 1))
        ),
    )
    group = structured(
        "landmarks",
        all_descendants=True,
        end_at=Cursor(values=[V(Ref("cities/SF/landmarks/z"))], before=True),
        start_at=Cursor(values=[V(Ref("cities/SF/landmarks/a"))], before=False),
    )
    add(
        "run-query-request-scoped-group",
        "RunQueryRequest",
        firestore.RunQueryRequest.pb()(
            parent=DOCS + "/cities/SF",
            structured_query=group,
            new_transaction=TransactionOptions(read_only=TransactionOptions.ReadOnly()),
        ),
    )
    kindless = structured(None, all_descendants=True, select=StructuredQuery.Projection(fields=[fref("__name__")]))
    kindless.limit.value = 5000
    add(
        "run-query-request-kindless",
        "RunQueryRequest",
        firestore.RunQueryRequest.pb()(parent=DOCS, structured_query=kindless, read_time=ts(15, 0)),
    )
    zero = structured("c", select=StructuredQuery.Projection())
    zero.limit.value = 0
    add(
        "run-query-request-limit-zero",
        "RunQueryRequest",
        firestore.RunQueryRequest.pb()(parent=DOCS, structured_query=zero),
    )
    add(
        "run-query-request-or",
        "RunQueryRequest",
        firestore.RunQueryRequest.pb()(
            parent=DOCS,
            structured_query=structured(
                "cities",
                where=composite(CF.OR, [ffilter("a", FF.EQUAL, 1), composite(CF.AND, [ffilter("b", FF.EQUAL, 2), ffilter("c", FF.LESS_THAN, 3)])]),
            ),
        ),
    )
    add(
        "run-query-response-document",
        "RunQueryResponse",
        firestore.RunQueryResponse.pb()(
            document=doc("cities/SF", {"pop": 1}, ts(1, 0), ts(2, 0)), read_time=ts(3, 0), skipped_results=2
        ),
    )
    add(
        "run-query-response-transaction",
        "RunQueryResponse",
        firestore.RunQueryResponse.pb()(transaction=b"tx", read_time=ts(3, 0)),
    )
    add("run-query-response-done", "RunQueryResponse", firestore.RunQueryResponse.pb()(read_time=ts(4, 0), done=True))

    Aggregation = StructuredAggregationQuery.Aggregation
    count_up_to = Aggregation(count=Aggregation.Count(), alias="c")
    count_up_to.count.up_to.value = 5
    aggregation_query = StructuredAggregationQuery(
        structured_query=structured("cities", where=ffilter("pop", FF.GREATER_THAN, 0)),
        aggregations=[
            count_up_to,
            Aggregation(count=Aggregation.Count()),
            Aggregation(sum=Aggregation.Sum(field=fref("pop")), alias="s"),
            Aggregation(avg=Aggregation.Avg(field=fref("a.b")), alias="field_1"),
        ],
    )
    add(
        "run-aggregation-query-request",
        "RunAggregationQueryRequest",
        firestore.RunAggregationQueryRequest.pb()(parent=DOCS, structured_aggregation_query=aggregation_query),
    )
    add(
        "run-aggregation-query-request-read-time",
        "RunAggregationQueryRequest",
        firestore.RunAggregationQueryRequest.pb()(
            parent=DOCS + "/a/b",
            structured_aggregation_query=StructuredAggregationQuery(
                structured_query=structured("c"), aggregations=[Aggregation(count=Aggregation.Count())]
            ),
            read_time=ts(16, 0),
        ),
    )
    result = AggregationResult()
    result.aggregate_fields["c"].CopyFrom(V(5))
    result.aggregate_fields["s"].CopyFrom(V(1.5))
    result.aggregate_fields["field_1"].CopyFrom(V(None))
    add(
        "run-aggregation-query-response",
        "RunAggregationQueryResponse",
        firestore.RunAggregationQueryResponse.pb()(result=result, transaction=b"t", read_time=ts(17, 0)),
    )
    add(
        "partition-query-request",
        "PartitionQueryRequest",
        firestore.PartitionQueryRequest.pb()(
            parent=DOCS,
            structured_query=structured("cities", all_descendants=True, order_by=[StructuredQuery.Order(field=fref("__name__"), direction=ASC)]),
            partition_count=4,
            page_token="t",
            page_size=2,
            read_time=ts(18, 0),
        ),
    )
    add(
        "partition-query-response",
        "PartitionQueryResponse",
        firestore.PartitionQueryResponse.pb()(
            partitions=[Cursor(values=[V(Ref("cities/M"))]), Cursor(values=[V(Ref("cities/T"))])], next_page_token="x"
        ),
    )

    # Listen.
    Target = firestore.Target.pb()
    documents_target = Target(
        documents=Target.DocumentsTarget(documents=[DOCS + "/cities/SF", DOCS + "/cities/LA"]),
        resume_token=b"\x01\x02",
        target_id=20601,
        once=True,
    )
    add(
        "listen-request-documents",
        "ListenRequest",
        firestore.ListenRequest.pb()(database=DB, add_target=documents_target, labels={"goog-listen-tags": "x"}),
    )
    query_target = Target(
        query=Target.QueryTarget(parent=DOCS, structured_query=structured("cities", where=ffilter("pop", FF.GREATER_THAN, 0))),
        read_time=ts(19, 0),
        target_id=2,
    )
    query_target.expected_count.value = 3
    add("listen-request-query", "ListenRequest", firestore.ListenRequest.pb()(database=DB, add_target=query_target))
    add("listen-request-remove", "ListenRequest", firestore.ListenRequest.pb()(database=DB, remove_target=20601))
    TargetChange = firestore.TargetChange.pb()
    ListenResponse = firestore.ListenResponse.pb()
    add(
        "listen-response-add",
        "ListenResponse",
        ListenResponse(target_change=TargetChange(target_change_type=TargetChange.TargetChangeType.ADD, target_ids=[20601])),
    )
    add(
        "listen-response-no-change",
        "ListenResponse",
        ListenResponse(target_change=TargetChange(resume_token=b"tok", read_time=ts(20, 5000))),
    )
    add(
        "listen-response-current",
        "ListenResponse",
        ListenResponse(
            target_change=TargetChange(
                target_change_type=TargetChange.TargetChangeType.CURRENT, target_ids=[1, 2], resume_token=b"r", read_time=ts(21, 0)
            )
        ),
    )
    add(
        "listen-response-remove",
        "ListenResponse",
        ListenResponse(
            target_change=TargetChange(
                target_change_type=TargetChange.TargetChangeType.REMOVE,
                target_ids=[7],
                cause=status_pb2.Status(code=3, message="bad query"),
            )
        ),
    )
    add(
        "listen-response-reset",
        "ListenResponse",
        ListenResponse(target_change=TargetChange(target_change_type=TargetChange.TargetChangeType.RESET, target_ids=[-1, 2147483647])),
    )
    add(
        "listen-response-document-change",
        "ListenResponse",
        ListenResponse(
            document_change=write.DocumentChange.pb()(
                document=doc("cities/SF", {"pop": 1}, ts(1, 0), ts(2, 0)), target_ids=[20601], removed_target_ids=[3, 4]
            )
        ),
    )
    add(
        "listen-response-document-delete",
        "ListenResponse",
        ListenResponse(
            document_delete=write.DocumentDelete.pb()(document=DOCS + "/cities/SF", removed_target_ids=[20601], read_time=ts(22, 0))
        ),
    )
    add(
        "listen-response-document-remove",
        "ListenResponse",
        ListenResponse(
            document_remove=write.DocumentRemove.pb()(document=DOCS + "/cities/SF", removed_target_ids=[20601], read_time=ts(23, 0))
        ),
    )
    add(
        "listen-response-filter",
        "ListenResponse",
        ListenResponse(filter=write.ExistenceFilter.pb()(target_id=20601, count=12)),
    )
    return c


def classes():
    """Each case type's `_pb` class, by the Swift type's name."""
    names = {
        "Value": Value,
        "Document": Document,
        "DocumentMask": DocumentMask,
        "Precondition": Precondition,
        "Write": Write,
        "WriteResult": WriteResult,
    }
    for name in [
        "CommitRequest", "CommitResponse", "BatchWriteRequest", "BatchWriteResponse",
        "BatchGetDocumentsRequest", "BatchGetDocumentsResponse", "GetDocumentRequest",
        "ListDocumentsRequest", "ListDocumentsResponse", "ListCollectionIdsRequest",
        "ListCollectionIdsResponse", "CreateDocumentRequest", "UpdateDocumentRequest",
        "DeleteDocumentRequest", "BeginTransactionRequest", "BeginTransactionResponse",
        "RollbackRequest", "RunQueryRequest", "RunQueryResponse", "RunAggregationQueryRequest",
        "RunAggregationQueryResponse", "PartitionQueryRequest", "PartitionQueryResponse",
        "ListenRequest", "ListenResponse",
    ]:
        names[name] = getattr(firestore, name).pb()
    return names


def serialize(message):
    return message.SerializeToString(deterministic=True)


def without_unknown(message):
    copy = type(message)()
    copy.CopyFrom(message)
    copy.DiscardUnknownFields()
    return copy


def print_cases():
    for name, type_name, message in cases():
        line = {"name": name, "type": type_name, "hex": serialize(message).hex()}
        canonical = serialize(without_unknown(message))
        if canonical != serialize(message):
            line["canonical"] = canonical.hex()
        print(json.dumps(line))


def contains_nan(message):
    return "nan" in str(message).lower()


def check():
    expected = {name: (type_name, message) for name, type_name, message in cases()}
    types = classes()
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        answer = {"name": item["name"], "equal": False}
        try:
            type_name, message = expected[item["name"]]
            if type_name != item["type"]:
                raise ValueError(f"type {item['type']} is not the case's {type_name}")
            parsed = types[type_name]()
            parsed.ParseFromString(bytes.fromhex(item["hex"]))
            reference = without_unknown(message)
            same_bytes = serialize(parsed) == serialize(reference)
            # NaN is unequal to itself in message comparison: such cases compare bytes.
            answer["equal"] = same_bytes and (contains_nan(reference) or parsed == reference)
            if not answer["equal"]:
                answer["error"] = f"parsed {parsed} differs from {reference}"
        except Exception as error:  # reported per case
            answer["error"] = f"{type(error).__name__}: {error}"
        print(json.dumps(answer))


REQUEST_TYPES = {
    "Commit": "CommitRequest",
    "BatchGetDocuments": "BatchGetDocumentsRequest",
    "BeginTransaction": "BeginTransactionRequest",
    "Rollback": "RollbackRequest",
    "RunQuery": "RunQueryRequest",
    "RunAggregationQuery": "RunAggregationQueryRequest",
    "ListCollectionIds": "ListCollectionIdsRequest",
    "ListDocuments": "ListDocumentsRequest",
    "GetDocument": "GetDocumentRequest",
    "CreateDocument": "CreateDocumentRequest",
    "UpdateDocument": "UpdateDocumentRequest",
    "DeleteDocument": "DeleteDocumentRequest",
    "BatchWrite": "BatchWriteRequest",
    "PartitionQuery": "PartitionQueryRequest",
    "Listen": "ListenRequest",
}


def exchanges(path):
    types = classes()
    index = 0
    with open(path) as recording:
        for line in recording:
            event = json.loads(line)
            if event.get("ev") != "req":
                continue
            type_name = REQUEST_TYPES[event["method"]]
            message = json_format.ParseDict(event["msg"], types[type_name]())
            print(json.dumps({"method": event["method"], "index": index, "type": type_name, "hex": serialize(message).hex()}))
            index += 1


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "cases":
        print_cases()
    elif mode == "check":
        check()
    elif mode == "exchanges" and len(sys.argv) == 3:
        exchanges(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
