"""Run one RefactorBench test file and print one JSON line: every test's outcome.

    python3 -I run_ast_tests.py TEST_FILE      (cwd: a directory one level below
                                                the repository root)

Self-contained (the standard library only): it also runs as a Harbor verifier
inside a task's container. Subtests are reported one by one, as the tests use them
for one check per file.
"""

import importlib.util
import json
import sys
import traceback
import unittest


class Collector(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.tests = []

    def _add(self, test, passed, output=""):
        self.tests.append({"name": test.id().split(".", 1)[-1], "passed": passed,
                           "output": output[-4000:]})

    def addSuccess(self, test):
        self._add(test, True)

    def addFailure(self, test, err):
        self._add(test, False, "".join(traceback.format_exception_only(err[0], err[1])).strip())

    def addError(self, test, err):
        self._add(test, False, "error: " + "".join(
            traceback.format_exception_only(err[0], err[1])).strip())

    def addSkip(self, test, reason):
        self._add(test, False, f"skipped: {reason}")

    def addExpectedFailure(self, test, err):
        self._add(test, False, "expected failure")

    def addUnexpectedSuccess(self, test):
        self._add(test, False, "unexpected success")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._add(subtest, False, "".join(
                traceback.format_exception_only(err[0], err[1])).strip())


def main():
    path = sys.argv[1]
    try:
        spec = importlib.util.spec_from_file_location("refactorbench_test", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    except Exception as exc:
        print(json.dumps({"error": f"cannot load {path}: {type(exc).__name__}: {exc}"}))
        return 2
    result = Collector()
    suite.run(result)
    # A test whose subtests failed was also reported as a success by unittest: drop those.
    failed = {t["name"].split(" ", 1)[0] for t in result.tests if not t["passed"]}
    tests = [t for t in result.tests if t["passed"] is False or t["name"] not in failed]
    print(json.dumps({"tests": tests, "ran": result.testsRun}))
    return 0 if tests and all(t["passed"] for t in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
