"""A benchmark of Firestore servers through Google's Python client, A and B side by side.

    bench.py                                    # Google's emulator alone
    bench.py --b 'hearth serve --ephemeral --port {port}'
    bench.py --a 127.0.0.1:8080 --b 127.0.0.1:9090

A server is `emulator` (Google's, started here), a command with `{port}` (started here),
or `host:port` (already running: then start-up and memory are not measured). The servers
run one after the other, never together, so that they do not share the machine's cores.

Measured for each, in this order:
- start-up: from spawning the command to the first successful get of a document;
- memory: resident set size of the server's processes (from /proc, summed over the
  command and its children) at that first answer, and after loading 1,000 posts;
- single-document commits/s: `document.set` one after another;
- point gets/s: `document.get` of random posts;
- feed queries/s: `where ownerId == X order by createdAt desc limit 20` over 1,000 posts
  of 50 owners;
- counts/s: `where ownerId == X` count aggregations;
- listener latency: a listener on one document, the median time from a commit's answer
  (and from its sending) to the snapshot that shows it.
Every loop is bounded by a count and by time. The figures are printed for A and B with
B/A ratios; nothing is asserted.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import secrets
import statistics
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servers  # noqa: E402

from google.auth.credentials import AnonymousCredentials  # noqa: E402
from google.cloud import firestore  # noqa: E402
from google.cloud.firestore_v1.base_query import FieldFilter  # noqa: E402

POSTS = 1000
OWNERS = 50


def make_client(host: str, project: str) -> firestore.Client:
    previous = os.environ.get("FIRESTORE_EMULATOR_HOST")
    os.environ["FIRESTORE_EMULATOR_HOST"] = host
    try:
        return firestore.Client(project=project, credentials=AnonymousCredentials())
    finally:
        if previous is None:
            os.environ.pop("FIRESTORE_EMULATOR_HOST", None)
        else:
            os.environ["FIRESTORE_EMULATOR_HOST"] = previous


WARMUP_SECONDS = 1.0


CLIENT_CPU: dict[str, float] = {}


def rate(fn, count: int, seconds: float, name: str | None = None) -> float:
    """Operations per second of `fn`, run up to `count` times or for `seconds`, after
    running it for WARMUP_SECONDS (a JIT-compiled server is slow on its first calls).
    The client's own CPU time per operation goes to CLIENT_CPU[name]: where it is near
    the time per operation, the Python client, not the server, sets the pace."""
    warm_until = time.perf_counter() + WARMUP_SECONDS
    for _ in range(count):
        fn()
        if time.perf_counter() > warm_until:
            break
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while done < count and time.perf_counter() < deadline:
        fn()
        done += 1
    if name:
        CLIENT_CPU[name] = (time.process_time() - cpu) * 1000 / max(1, done)
    return done / (time.perf_counter() - start)


def first_answer(server: servers.Server, project: str, timeout: float = 60.0):
    """Spawns the server (when it is a command) and waits for a first successful get;
    returns the client and the seconds from spawning to that answer (None when the
    server was already running)."""
    spawned_at = time.perf_counter()
    server.start(timeout=timeout)
    client = make_client(server.host, project)
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.document("bench/probe").get(timeout=2)
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)
    seconds = time.perf_counter() - spawned_at if server.spawned else None
    return client, seconds


def load_posts(client: firestore.Client) -> None:
    base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    rng = random.Random(1)
    posts = client.collection("posts")
    for start in range(0, POSTS, 250):
        batch = client.batch()
        for i in range(start, min(POSTS, start + 250)):
            batch.set(
                posts.document(f"p{i:04d}"),
                {
                    "ownerId": f"u{i % OWNERS:02d}",
                    "createdAt": base + datetime.timedelta(minutes=rng.randint(0, 500_000)),
                    "title": f"post {i}",
                    "body": "lorem ipsum dolor sit amet " * 8,
                    "likes": rng.randint(0, 1000),
                    "tags": rng.sample(["a", "b", "c", "d", "e"], 2),
                },
            )
        batch.commit()


def listener_latency(client: firestore.Client, samples: int, seconds: float):
    """Median milliseconds from a commit's answer, and from its sending, to the snapshot."""
    ref = client.document("bench/listened")
    ref.set({"n": -1})
    seen: dict[int, float] = {}
    arrived = threading.Condition()

    def on_snapshot(docs, _changes, _read_time):
        now = time.perf_counter()
        for d in docs:
            if d.exists:
                n = d.get("n")
                with arrived:
                    seen.setdefault(n, now)
                    arrived.notify_all()

    watch = ref.on_snapshot(on_snapshot)
    try:
        with arrived:
            arrived.wait_for(lambda: -1 in seen, timeout=10)
        from_answer, from_sending = [], []
        deadline = time.perf_counter() + seconds
        for n in range(samples):
            if time.perf_counter() > deadline:
                break
            sent = time.perf_counter()
            ref.set({"n": n})
            answered = time.perf_counter()
            with arrived:
                if not arrived.wait_for(lambda: n in seen, timeout=5):
                    continue
            from_answer.append((seen[n] - answered) * 1000)
            from_sending.append((seen[n] - sent) * 1000)
        if not from_answer:
            return None, None
        return statistics.median(from_answer), statistics.median(from_sending)
    finally:
        watch.unsubscribe()


def bench(server: servers.Server, args) -> dict:
    project = f"bench-{server.label.lower()}-{secrets.token_hex(3)}"
    result: dict[str, float | None] = {}
    try:
        client, result["startup_s"] = first_answer(server, project)
        rss = server.rss_bytes()
        result["rss_start_mb"] = rss / 2**20 if rss else None
        t = time.perf_counter()
        load_posts(client)
        result["load_1000_s"] = time.perf_counter() - t
        time.sleep(0.5)
        rss = server.rss_bytes()
        result["rss_1000_mb"] = rss / 2**20 if rss else None

        rng = random.Random(2)
        counter = iter(range(10**9))
        scratch = client.collection("scratch")
        result["commits_per_s"] = rate(
            lambda: scratch.document(f"w{next(counter) % 500}").set({"n": next(counter), "s": "x" * 64}),
            args.count, args.seconds, "commits_per_s",
        )
        posts = client.collection("posts")
        result["gets_per_s"] = rate(
            lambda: posts.document(f"p{rng.randrange(POSTS):04d}").get(), args.count, args.seconds,
            "gets_per_s",
        )

        def feed():
            owner = f"u{rng.randrange(OWNERS):02d}"
            docs = (
                posts.where(filter=FieldFilter("ownerId", "==", owner))
                .order_by("createdAt", direction=firestore.Query.DESCENDING)
                .limit(20)
                .get()
            )
            assert len(docs) == 20, len(docs)

        result["feed_queries_per_s"] = rate(feed, args.count, args.seconds, "feed_queries_per_s")

        def count():
            owner = f"u{rng.randrange(OWNERS):02d}"
            value = posts.where(filter=FieldFilter("ownerId", "==", owner)).count().get()[0][0].value
            assert value == POSTS // OWNERS, value

        result["counts_per_s"] = rate(count, args.count, args.seconds, "counts_per_s")
        result["listener_ms"], result["listener_from_send_ms"] = listener_latency(
            client, args.listener_samples, args.seconds * 2
        )
        client.close()
        result["client_cpu_ms"] = dict(CLIENT_CPU)
    finally:
        server.stop()
    return result


ROWS = [
    ("startup_s", "start-up to first answer", "s", 2),
    ("rss_start_mb", "memory at start-up", "MB", 0),
    ("load_1000_s", "load 1,000 posts (4 batches)", "s", 2),
    ("rss_1000_mb", "memory after 1,000 posts", "MB", 0),
    ("commits_per_s", "single-document commits", "/s", 0),
    ("gets_per_s", "point gets", "/s", 0),
    ("feed_queries_per_s", "feed queries (==, order by, limit 20)", "/s", 0),
    ("counts_per_s", "count aggregations (==)", "/s", 0),
    ("listener_ms", "listener: commit answer to snapshot", "ms", 2),
    ("listener_from_send_ms", "listener: commit sent to snapshot", "ms", 2),
]


def fmt(value, unit, digits):
    if value is None:
        return "n/a"
    return f"{value:.{digits}f} {unit}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    servers.add_server_args(parser, "a", servers.EMULATOR_COMMAND)
    servers.add_server_args(parser, "b", None)
    parser.add_argument("--count", type=int, default=1000, help="operations per measurement, at most")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement, at most")
    parser.add_argument("--listener-samples", type=int, default=200)
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of warm-up per measurement")
    args = parser.parse_args()
    global WARMUP_SECONDS
    WARMUP_SECONDS = args.warmup

    sides = [s for s in (servers.server_from(args, "a"), servers.server_from(args, "b")) if s]
    results = []
    for server in sides:
        print(f"bench: {server.describe()}", file=sys.stderr, flush=True)
        results.append(bench(server, args))

    header = f"{'':40} {'A':>12}" + (f" {'B':>12} {'B/A':>7}" if len(results) > 1 else "")
    print(header)
    for key, label, unit, digits in ROWS:
        line = f"{label:40} {fmt(results[0][key], unit, digits):>12}"
        if len(results) > 1:
            a, b = results[0][key], results[1][key]
            ratio = f"{b / a:.2f}" if a and b is not None else "n/a"
            line += f" {fmt(b, unit, digits):>12} {ratio:>7}"
        print(line)
    print("the Python client's own CPU time per operation (ms), A" + (" / B" if len(results) > 1 else "") + ":")
    for key, label, unit, digits in ROWS:
        cpus = [r.get("client_cpu_ms", {}).get(key) for r in results]
        if cpus[0] is not None:
            print(f"  {label:38} " + " / ".join(f"{c:.2f}" if c is not None else "n/a" for c in cpus))
    for server in sides:
        print(f"  {server.describe()}")
    with open("/proc/loadavg") as f:
        print(f"  load average at the end: {' '.join(f.read().split()[:3])} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
