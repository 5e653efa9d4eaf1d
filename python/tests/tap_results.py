"""A pytest plugin that writes one line "RESULT 0|1 NAME" per test to the
file named by the environment variable SEGC_RESULTS (appended), for the
TAP wrapper tests/python/pytest.sh; a skipped test is a passed one with
a TAP SKIP directive."""

import os


def _write(line):
    path = os.environ.get("SEGC_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")


def pytest_runtest_logreport(report):
    """One line per test: its call, or the phase that failed or
    skipped it."""
    name = report.nodeid.replace("\n", " ")
    if report.failed:
        _write("RESULT 1 %s (%s)" % (name, report.when))
    elif report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) \
            else "skipped"
        _write("RESULT 0 %s # SKIP %s" % (name, str(reason).replace(
            "\n", " ")))
    elif report.when == "call":
        _write("RESULT 0 %s" % name)


def pytest_collectreport(report):
    """A module that cannot be collected is a failed test."""
    if report.failed:
        _write("RESULT 1 collecting %s" % report.nodeid)
