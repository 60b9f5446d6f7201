"""Google's own system tests of its Python client, run against Firestore servers.

The tests are those of `google-cloud-firestore` 2.34.1's source package
(tests/system: test_system.py, test_system_async.py, test__helpers.py, util/), fetched
with pip into .build/wire/ once and reused. With FIRESTORE_EMULATOR_HOST set they skip
what Google's emulator is known not to do (query profiles, vector search, …).

One server (`--server …`, default Google's emulator) writes one JSON file of outcomes,
test id → passed/failed/skipped. With `--compare` the tests run against server A (by
default Google's emulator, started and stopped here) and then server B, and the
differences are printed test by test; the exit status is 1 when a test that passes on A
does not pass on B.

    Tools/wire-tests.sh                                   # Google's emulator alone
    Tools/wire-tests.sh --compare --server-command 'hearth serve --ephemeral --port {port}'
    Tools/wire-tests.sh --compare --server-host 127.0.0.1:8080
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.metadata
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servers  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CACHE = os.path.join(ROOT, ".build", "wire")
CLIENT = "google-cloud-firestore"
VERSION = "2.34.1"
SYSTEM_FILES = ("test_system.py", "test_system_async.py", "test__helpers.py", "util/")
TEST_FILES = ("test_system.py", "test_system_async.py")
NEEDS = {
    "google-cloud-testutils": None,
    "pytest": lambda v: tuple(int(p) for p in v.split(".")[:2]) < (8, 4),
    "pytest-asyncio": lambda v: v == "0.21.2",
    "pytest-subtests": None,
    "mock": None,
    "six": None,
    "PyYAML": None,
}
PIP_NAMES = [
    "google-cloud-testutils",
    "pytest<8.4",
    "pytest-asyncio==0.21.2",
    "pytest-subtests",
    "mock",
    "six",
    "pyyaml",
]


def log(message: str) -> None:
    print(f"wire-tests: {message}", file=sys.stderr, flush=True)


def ensure_requirements() -> None:
    """Installs the system tests' own needs into this venv when one is missing."""
    missing = False
    for name, accept in NEEDS.items():
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing = True
            break
        if accept and not accept(version):
            missing = True
            break
    try:
        if importlib.metadata.version(CLIENT) != VERSION:
            raise SystemExit(f"{CLIENT} {VERSION} is not in {sys.prefix}: run Tools/setup.sh")
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit(f"{CLIENT} is not in {sys.prefix}: run Tools/setup.sh")
    if missing:
        log("installing the system tests' packages: " + " ".join(PIP_NAMES))
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", *PIP_NAMES], check=True
        )


def ensure_tests() -> str:
    """The folder of the extracted system tests, fetched and extracted when missing."""
    tests = os.path.join(CACHE, f"system-tests-{VERSION}")
    if all(os.path.exists(os.path.join(tests, f)) for f in SYSTEM_FILES):
        return tests
    sdist_dir = os.path.join(CACHE, "sdist")
    os.makedirs(sdist_dir, exist_ok=True)
    sdist = os.path.join(sdist_dir, f"google_cloud_firestore-{VERSION}.tar.gz")
    if not os.path.exists(sdist):
        log(f"fetching {CLIENT}=={VERSION}'s source package")
        subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--no-binary", ":all:", "-d", sdist_dir, f"{CLIENT}=={VERSION}",
            ],
            check=True,
        )
    prefix = f"google_cloud_firestore-{VERSION}/tests/system/"
    staging = tests + ".partial"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    with tarfile.open(sdist) as archive:
        for member in archive.getmembers():
            if not member.name.startswith(prefix) or not member.isfile():
                continue
            relative = member.name[len(prefix):]
            if not any(
                relative == f or (f.endswith("/") and relative.startswith(f))
                for f in SYSTEM_FILES
            ):
                continue
            target = os.path.join(staging, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with archive.extractfile(member) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
    shutil.rmtree(tests, ignore_errors=True)
    os.rename(staging, tests)
    return tests


def run_tests(
    server: servers.Server, tests: str, out_path: str, extra: list[str], timeout: float,
    targets: list[str] | None = None,
) -> dict:
    """Runs the system tests against a started server; returns the outcomes file's content."""
    project = f"wire-{server.label.lower()}-{secrets.token_hex(4)}"
    env = dict(os.environ)
    env.update(
        FIRESTORE_EMULATOR_HOST=server.host,
        GCLOUD_PROJECT=project,
        GOOGLE_CLOUD_PROJECT=project,
        WIRE_OUTCOMES=out_path,
        PYTHONPATH=os.path.dirname(os.path.abspath(__file__))
        + os.pathsep
        + env.get("PYTHONPATH", ""),
        PYTHONDONTWRITEBYTECODE="1",
    )
    for variable in ("FIRESTORE_APPLICATION_CREDENTIALS", "GOOGLE_APPLICATION_CREDENTIALS"):
        env.pop(variable, None)
    argv = [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "outcomes_plugin",
        "-q", "-rN", "--tb=no", "--no-header", *extra, *(targets or TEST_FILES),
    ]
    what = " ".join(TEST_FILES) if not targets else f"{len(targets)} tests"
    log(f"server {server.label} at {server.host}, project {project}: pytest {what}")
    started = time.monotonic()
    if os.path.exists(out_path):
        os.unlink(out_path)
    output = tempfile.TemporaryFile(mode="w+")
    process = subprocess.Popen(argv, cwd=tests, env=env, stdout=output, start_new_session=True)
    if os.environ.get("WIRE_PID_FILE"):  # for Tools/wire-tests.sh's trap
        with open(os.environ["WIRE_PID_FILE"], "a") as f:
            f.write(f"{process.pid}\n")
    timed_out = False
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        log(f"server {server.label}: pytest took over {timeout:.0f}s; stopped")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        servers.forget_pid(process.pid)
    seconds = time.monotonic() - started
    output.seek(0)
    stdout = output.read()
    summary = [line for line in stdout.splitlines() if line.strip()][-1:]
    if not os.path.exists(out_path):
        sys.stdout.write(stdout)
        raise SystemExit(f"pytest wrote no outcomes (exit {process.returncode})")
    with open(out_path) as f:
        result = json.load(f)
    if timed_out:
        result["timed_out"] = True
        if result.get("running"):
            result["tests"][result["running"]] = "failed"
            result["messages"][result["running"]] = f"still running after {timeout:.0f}s"
            result["totals"]["failed"] += 1
        summary = [f"stopped after {timeout:.0f}s"]
    result["server"] = server.describe()
    result["project"] = project
    result["wall_seconds"] = round(seconds, 2)
    result["pytest_summary"] = summary[0].strip("= ") if summary else ""
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)
    log(f"server {server.label}: {totals_line(result)} (pytest: {result['pytest_summary']}) → {out_path}")
    return result


def totals_line(result: dict) -> str:
    t, s = result["totals"], result["subtests"]
    line = f"{t['passed']} passed, {t['failed']} failed, {t['skipped']} skipped"
    if any(s.values()):
        line += f" (subtests: {s['passed']} passed, {s['failed']} failed, {s['skipped']} skipped)"
    return line + f" in {result['wall_seconds']:.1f}s"


def run_on(
    server: servers.Server, tests: str, out_path: str, extra: list[str], timeout: float,
    targets: list[str] | None = None,
) -> dict:
    try:
        server.start()
        return run_tests(server, tests, out_path, extra, timeout, targets)
    finally:
        server.stop()


def regressed(a: dict, b: dict, only_b: bool) -> list[str]:
    """The tests (not subtests) that pass on A and not on B."""
    ids = set(b["tests"]) if only_b else set(a["tests"]) | set(b["tests"])
    subtests = {t for t in ids if " [" in t and t.split(" [", 1)[0] in ids}
    return sorted(
        t for t in ids - subtests
        if a["tests"].get(t) == "passed" and b["tests"].get(t, "absent") != "passed"
    )


def confirm(a, b, server, tests, out_prefix, reruns, timeout, only_b) -> None:
    """Runs the tests that passed on A but not on B again on B (a fresh start of it when
    it is spawned here), up to `reruns` times; one that passes then is marked flaky in B's
    outcomes (`flaky` lists them) and no longer counts: some of Google's own tests race
    (test_watch_document timed out once on Google's emulator against itself)."""
    for attempt in range(1, reruns + 1):
        ids = regressed(a, b, only_b)
        if not ids or len(ids) > 40:
            return
        log(f"running {len(ids)} tests that failed on B only once more (rerun {attempt})")
        again = run_on(server, tests, f"{out_prefix}-{attempt}.json", [], timeout, ids)
        for test_id in ids:
            if again["tests"].get(test_id) == "passed":
                b["tests"][test_id] = "passed"
                b.setdefault("flaky", []).append(test_id)
                for t in list(b["tests"]):  # its subtests, as the rerun saw them
                    if t.startswith(test_id + " ["):
                        b["tests"][t] = again["tests"].get(t, b["tests"][t])
        recount(b)


def recount(result: dict) -> None:
    """The totals of a result whose outcomes were changed (by a rerun)."""
    tests = result["tests"]
    subtests = {t for t in tests if " [" in t and t.split(" [", 1)[0] in tests}
    for name, ids in (("totals", set(tests) - subtests), ("subtests", subtests)):
        counts = {"passed": 0, "failed": 0, "skipped": 0}
        for t in ids:
            counts[tests[t]] += 1
        result[name] = counts


def read_known_gaps(path: str) -> list:
    """The patterns (fnmatch) of tests B is known to fail, one a line, `# reason` after."""
    gaps = []
    with open(path) as f:
        for line in f:
            pattern = line.split("#", 1)[0].strip()
            if pattern:
                gaps.append(pattern)
    return gaps


def compare(a: dict, b: dict, only_b: bool = False, known_gaps: list = ()) -> int:
    """Prints the tests whose outcomes differ; counts those that pass on A only, but for
    the known gaps, and counts a known gap none of whose tests fails on B any more (it
    closed: take it off the list, which must stay true)."""
    ids = sorted(set(b["tests"]) if only_b else set(a["tests"]) | set(b["tests"]))
    regressions = 0
    rows = []
    still_open = set()
    for test_id in ids:
        oa, ob = a["tests"].get(test_id, "absent"), b["tests"].get(test_id, "absent")
        if oa == ob:
            continue
        gap = next((g for g in known_gaps if fnmatch.fnmatch(test_id, g)), None)
        if oa == "passed" and gap is not None:
            still_open.add(gap)
        elif oa == "passed":
            regressions += 1
        note = b.get("messages", {}).get(test_id) or a.get("messages", {}).get(test_id) or ""
        rows.append((test_id, oa, ob, note, gap))
    for test_id, oa, ob, note, gap in rows:
        mark = ("~~" if gap else "!!") if oa == "passed" else "  "
        print(f"{mark} A={oa:<8} B={ob:<8} {test_id}" + (f"\n      {note}" if note else ""))
    for gap in known_gaps:
        if gap not in still_open:
            print(f"!! known gap closed, take it off the list: {gap}")
            regressions += 1
    for name, result in (("A", a), ("B", b)):
        print(f"{name}: {totals_line(result)} — {result['server']}")
    for test_id in b.get("flaky", []):
        print(f"flaky on B: {test_id} failed, then passed when run again")
    known = sum(1 for row in rows if row[4] and row[1] == "passed")
    print(
        f"{len(rows)} tests differ; {known} are known gaps (~~); {regressions} other "
        "differences count" + ("" if regressions == 0 else " (failure)")
    )
    return regressions


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Google's Firestore system tests against a server, or two side by side."
    )
    parser.add_argument("--compare", action="store_true", help="run on A, then on B")
    parser.add_argument(
        "--server-command",
        help="the server (B with --compare) to spawn, {port} replaced by a free port",
    )
    parser.add_argument("--server-host", help="host:port of a running server (B with --compare)")
    parser.add_argument(
        "--a-command", default="emulator",
        help="server A with --compare (default: Google's emulator)",
    )
    parser.add_argument("--a-host", help="server A, already running")
    parser.add_argument(
        "--a-results", metavar="JSON",
        help="server A's outcomes from an earlier run's file instead of a run (e.g. "
        "Tools/Wire/emulator-outcomes.json, for a machine without Google's emulator)",
    )
    parser.add_argument(
        "--out", default=os.path.join(CACHE, "results"), help="folder of the JSON outcomes"
    )
    parser.add_argument(
        "--prepare", action="store_true",
        help="only fetch the tests and install their packages (for Tools/setup.sh)",
    )
    parser.add_argument("-k", help="pytest -k expression, to run a part")
    parser.add_argument(
        "--reruns", type=int, default=1,
        help="times a test that passes on A and not on B is run again on B before it "
        "counts (default 1; 0: never)",
    )
    parser.add_argument(
        "--timeout", type=float, default=600,
        help="seconds a server's run may take; then it is stopped, the test it hung in "
        "fails and the tests it did not reach are absent (default 600)",
    )
    parser.add_argument("--pytest-arg", action="append", default=[], help="passed to pytest")
    parser.add_argument(
        "--lift-skips", metavar="REGEX",
        help="run the tests whose skip reason matches REGEX anyway (the ones Google's emulator "
        "cannot pass: e.g. 'PartitionQuery|Internal Issue'); without --compare, any failure "
        "then fails the run",
    )
    parser.add_argument(
        "--seed-vector-search", action="store_true",
        help="write the documents the vector search tests read first (Google's "
        "util/bootstrap_vector_index.py), so that they can run with --lift-skips",
    )
    parser.add_argument(
        "--known-gaps", metavar="FILE",
        help="tests B is known to fail (fnmatch patterns, one a line, '# why' after): they "
        "do not count, and a pattern that no longer fails counts (e.g. Tools/Wire/known-gaps.txt)",
    )
    args = parser.parse_args()
    if args.lift_skips:
        os.environ["WIRE_LIFT_SKIPS"] = args.lift_skips
    if args.seed_vector_search:
        os.environ["WIRE_SEED_VECTOR_SEARCH"] = "1"

    ensure_requirements()
    tests = ensure_tests()
    if args.prepare:
        log(f"ready: {tests}")
        return 0
    os.makedirs(args.out, exist_ok=True)
    extra = list(args.pytest_arg) + (["-k", args.k] if args.k else [])
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())

    if not args.compare:
        server = servers.Server.from_args("S", args.server_command, args.server_host)
        result = run_on(server, tests, os.path.join(args.out, f"{stamp}-S.json"), extra, args.timeout)
        print(f"{totals_line(result)} — {result['server']}")
        if args.lift_skips:
            # Tests run past the emulator's skips are there to pass: any failure counts.
            failed = sorted(t for t, outcome in result["tests"].items() if outcome == "failed")
            for test in failed:
                print(f"!! {test}\n      {result.get('messages', {}).get(test, '')}")
            if failed or not result["tests"]:
                return 1
        return 0

    if not args.server_command and not args.server_host:
        parser.error("--compare needs server B: --server-command '…{port}…' or --server-host")
    b = servers.Server.from_args("B", args.server_command, args.server_host)
    if args.a_results:
        with open(args.a_results) as f:
            result_a = json.load(f)
        if args.k:  # only the tests that ran on B count
            log("with -k and --a-results, tests absent on B are not compared")
    else:
        a = servers.Server.from_args("A", None if args.a_host else args.a_command, args.a_host)
        result_a = run_on(a, tests, os.path.join(args.out, f"{stamp}-A.json"), extra, args.timeout)
    result_b = run_on(b, tests, os.path.join(args.out, f"{stamp}-B.json"), extra, args.timeout)
    only_b = bool(args.a_results and args.k)
    if args.reruns:
        confirm(result_a, result_b, b, tests, os.path.join(args.out, f"{stamp}-B-rerun"),
                args.reruns, args.timeout, only_b)
    gaps = read_known_gaps(args.known_gaps) if args.known_gaps else []
    return 1 if compare(result_a, result_b, only_b, gaps) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
