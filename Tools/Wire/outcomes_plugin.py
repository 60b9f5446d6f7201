"""A pytest plugin that writes each test's outcome to the JSON file named by
WIRE_OUTCOMES: test id → "passed", "failed" or "skipped".

A test's outcome folds all of its phases: a failure or error in setup, call or teardown
makes it "failed", a skip in any phase (or an expected failure) "skipped". A subtest
(pytest-subtests) that fails fails the test that holds it, and is listed on its own as
`test id [subtest message]` as well, so that a difference between two servers names it.
The file also holds a short message for each failed or skipped test (the skip's reason,
the failure's last line) and pytest's own totals.
"""

from __future__ import annotations

import json
import os
import re
import time

_RANK = {"passed": 0, "skipped": 1, "failed": 2}


class _Outcomes:
    def __init__(self, path: str):
        self.path = path
        self.tests: dict[str, str] = {}
        self.messages: dict[str, str] = {}
        self.subtest_seen: dict[str, int] = {}
        self.subtest_ids: set[str] = set()
        self.started = time.monotonic()
        self.running: str | None = None

    def _record(self, test_id: str, outcome: str, message: str | None) -> None:
        previous = self.tests.get(test_id)
        if previous is None or _RANK[outcome] > _RANK[previous]:
            self.tests[test_id] = outcome
            if message:
                self.messages[test_id] = message[:300]

    @staticmethod
    def _message(report) -> str | None:
        if report.skipped:
            longrepr = report.longrepr
            if isinstance(longrepr, tuple) and len(longrepr) == 3:
                return str(longrepr[2])
            return str(longrepr)
        if report.failed:
            crash = getattr(report.longrepr, "reprcrash", None)
            if crash is not None:
                return str(crash.message).splitlines()[0] if crash.message else None
            text = str(report.longrepr).strip().splitlines()
            return text[-1] if text else None
        return None

    def pytest_runtest_logreport(self, report):
        if hasattr(report, "wasxfail"):
            outcome = "passed" if report.passed else "skipped"
        elif report.failed:
            outcome = "failed"
        elif report.skipped:
            outcome = "skipped"
        else:
            outcome = "passed"
        context = getattr(report, "context", None)  # a subtest's report
        if context is not None:
            message = getattr(context, "msg", None)
            params = getattr(context, "kwargs", None) or {}
            label = message if message is not None else ""
            if params:
                label = (label + " " if label else "") + ",".join(
                    f"{k}={v}" for k, v in sorted(params.items())
                )
            # One test may run a subtest of one label several times: number them.
            sub_id = f"{report.nodeid} [{label or 'subtest'}]"
            seen = self.subtest_seen.get(sub_id, 0) + 1
            self.subtest_seen[sub_id] = seen
            if seen > 1:
                sub_id = f"{report.nodeid} [{label or 'subtest'} #{seen}]"
            self.subtest_ids.add(sub_id)
            self._record(sub_id, outcome, self._message(report))
            if outcome == "failed":
                self._record(report.nodeid, "failed", f"subtest {label} failed")
            return
        # The call phase decides a test's outcome; setup and teardown only make it worse.
        if report.when == "call" or outcome != "passed" or report.nodeid not in self.tests:
            self._record(report.nodeid, outcome, self._message(report))

    def pytest_collectreport(self, report):
        if report.failed:
            self._record(report.nodeid or "<collection>", "failed", self._message(report))

    def pytest_runtest_logstart(self, nodeid, location):
        # Written as the run goes, before each test, so that a run stopped for taking too
        # long still tells what it did and which test it hung in (a millisecond a test).
        self.running = nodeid
        self.write(None)

    def pytest_sessionfinish(self, session, exitstatus):
        self.running = None
        self.write(int(exitstatus))

    def write(self, exitstatus):
        totals = {"passed": 0, "failed": 0, "skipped": 0}
        subtests = {"passed": 0, "failed": 0, "skipped": 0}
        for test_id, outcome in self.tests.items():
            (subtests if test_id in self.subtest_ids else totals)[outcome] += 1
        partial = self.path + ".partial"
        with open(partial, "w") as f:
            json.dump(
                {
                    "seconds": round(time.monotonic() - self.started, 2),
                    "exit_status": exitstatus,
                    "running": self.running,
                    "totals": totals,
                    "subtests": subtests,
                    "tests": dict(sorted(self.tests.items())),
                    "messages": dict(sorted(self.messages.items())),
                },
                f,
                indent=1,
            )
        os.replace(partial, self.path)


def pytest_collection_modifyitems(config, items):
    """With WIRE_LIFT_SKIPS (a regular expression), a test's own skip or skipif mark
    whose reason matches it is dropped, so that the test runs: what Google's emulator
    cannot do may still pass on another server."""
    pattern = os.environ.get("WIRE_LIFT_SKIPS")
    if not pattern:
        return
    lifted = re.compile(pattern)
    for item in items:
        item.own_markers[:] = [
            mark for mark in item.own_markers
            if not (mark.name in ("skip", "skipif") and lifted.search(str(mark.kwargs.get("reason", ""))))
        ]


def pytest_sessionstart(session):
    """With WIRE_SEED_VECTOR_SEARCH, writes the documents the vector search tests read
    before they run, with Google's own `util/bootstrap_vector_index.py` (Google runs them
    against a project seeded so; a server that needs no vector index needs nothing more)."""
    if not os.environ.get("WIRE_SEED_VECTOR_SEARCH"):
        return
    import sys

    from google.cloud import firestore

    sys.path.insert(0, str(session.config.rootpath))
    from util.bootstrap_vector_index import COLLECTION_ID, create_vector_documents

    create_vector_documents(firestore.Client(project=os.environ["GCLOUD_PROJECT"]), COLLECTION_ID)


def pytest_configure(config):
    path = os.environ.get("WIRE_OUTCOMES")
    if path:
        config.pluginmanager.register(_Outcomes(path), "wire-outcomes")
