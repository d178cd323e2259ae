"""An author's checks of a task before `eval`: the reference run under the
task's run-time audit by validate and record (every violation named, with its
stack; what the standard library imports for itself is its own), the oracle
timed quickly against the reference (validate --quick-eval), and the task's
rules checked before anything is recorded or mutated, each defect with a
message of its own.

The task: tests/authoring/wordlist, a small package whose reference reads its
data through importlib.resources (which imports tempfile, zipfile ... for
itself), under a checklist that permits the candidate importlib.resources
and bisect only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import golden, runners
from frontier_measure.cli import main
from frontier_measure.record import record
from frontier_measure.task import TaskError
from frontier_measure.validate import check, quick_eval_oracle, validate

HERE = Path(__file__).resolve().parent
WORDLIST = HERE / "authoring" / "wordlist"
LEXICON = "environment/workspace/wordlist/lexicon.py"


def _copy(dest: Path) -> Path:
    task = dest / "wordlist"
    shutil.copytree(WORDLIST, task, ignore=shutil.ignore_patterns("__pycache__"))
    return task


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The task, recorded once (one recording) for the tests that need golden outputs."""
    task = _copy(tmp_path_factory.mktemp("recorded"))
    t, runner = runners.load(task)
    record(t, runner, runs=1)
    return task


@pytest.fixture
def task(recorded: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "wordlist"
    shutil.copytree(recorded, dest)
    return dest


# ------------------------------------------------------------ the run-time audit


def test_an_honest_reference_using_importlib_resources_is_compliant(task):
    r = check(task, coverage=False)
    assert r.problems == [], r.problems
    # What importlib.resources imported for itself is said, as the standard library's.
    notes = "\n".join(r.notes)
    assert "tempfile" in notes and "the standard library (importlib/resources/" in notes, notes
    assert 'permitted (library_imports = "any")' in notes


def test_listed_library_imports_make_the_same_reference_a_violation(task):
    checklist = task / "tests" / "checklist.toml"
    checklist.write_text(checklist.read_text().replace(
        'allow = []', 'allow = []\nlibrary_imports = "listed"'))
    problems = check(task, coverage=False).problems
    tempfile = [p for p in problems if "import of 'tempfile'" in p]
    assert tempfile, problems
    assert "the standard library (importlib/resources/" in tempfile[0]
    # The stack, as a traceback reads: the reference's own line that led there.
    assert f"{LEXICON}:12 in _load" in tempfile[0] or f"{LEXICON}:3 in <module>" in tempfile[0]


def _break_reference(task: Path) -> None:
    lexicon = task / LEXICON
    text = lexicon.read_text()
    text = text.replace('        """How many words start with `prefix`."""\n',
                        '        """How many words start with `prefix`."""\n'
                        '        import ftplib  # not permitted by the checklist\n', 1)
    text = text.replace('        """The other words made of the same letters, sorted."""\n',
                        '        """The other words made of the same letters, sorted."""\n'
                        '        try:\n'
                        '            open("/proc/fm-audit-test", "w")\n'
                        '        except OSError:\n'
                        '            pass\n', 1)
    lexicon.write_text(text)


def _line_of(task: Path, needle: str) -> int:
    lines = (task / LEXICON).read_text().splitlines()
    return next(i for i, ln in enumerate(lines, 1) if needle in ln)


def test_validate_names_every_violation_of_the_reference_with_its_stack(task):
    _break_reference(task)
    problems = [p for p in check(task, coverage=False).problems if p.startswith("run time")]
    assert len(problems) == 2, problems
    ftplib = next(p for p in problems if "import of 'ftplib'" in p)
    assert "(import of a module the task does not permit)" in ftplib
    assert f"{LEXICON}:{_line_of(task, 'import ftplib')} in count_prefix" in ftplib
    # Most recent call last: the reference's frame is the last line.
    assert ftplib.splitlines()[-1].strip().startswith(LEXICON)
    write = next(p for p in problems if "/proc/fm-audit-test" in p)
    assert "writing outside the side's directories" in write
    assert f"{LEXICON}:{_line_of(task, 'fm-audit-test')} in anagrams" in write


def test_record_refuses_a_reference_that_breaks_its_checklist(task):
    _break_reference(task)
    before = (task / "tests" / "golden.json").read_bytes()
    t, runner = runners.load(task)
    with pytest.raises(TaskError) as err:
        record(t, runner, runs=1)
    text = "\n".join(err.value.problems)
    assert "import of 'ftplib'" in text and "/proc/fm-audit-test" in text, text
    assert (task / "tests" / "golden.json").read_bytes() == before


# ------------------------------------------------------------ the oracle, timed quickly


def test_quick_eval_warns_of_an_oracle_that_is_a_byte_copy(task):
    shutil.rmtree(task / "solution" / "workspace")
    shutil.copytree(task / "environment" / "workspace", task / "solution" / "workspace")
    q = quick_eval_oracle(task, 5)
    assert q.warn and "byte copy" in q.message and q.speedup is None
    # validate's audit says it too, without timing anything.
    assert any("byte copy" in w for w in check(task, coverage=False).warnings)


def test_quick_eval_warns_of_an_oracle_no_faster_than_the_reference(task):
    # The reference's code with a comment added: not a copy, and about 1x.
    shutil.rmtree(task / "solution" / "workspace")
    shutil.copytree(task / "environment" / "workspace", task / "solution" / "workspace")
    lexicon = task / "solution" / "workspace" / "wordlist" / "lexicon.py"
    lexicon.write_text(lexicon.read_text() + "# tidied\n")
    q = quick_eval_oracle(task, 6)
    assert q.warn, q.message
    assert "not above the task's 1.5x threshold" in q.message
    assert q.input_id == "queries40"  # the smallest timing input


def test_quick_eval_times_a_faster_oracle_within_its_budget(task):
    r = CliRunner().invoke(main, ["validate", "--no-coverage", "--quick-eval",
                                  "--quick-eval-budget", "6", str(task)])
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if "quick eval" in ln)
    assert "above the 1.5x threshold" in line and "warning" not in line, r.output


# ------------------------------------------------------------ each defect its own message


def test_a_stale_recording_names_what_changed(task):
    rel = "tests/golden.json"
    (task / LEXICON).write_text((task / LEXICON).read_text() + "\n# changed\n")
    (task / "environment/workspace/wordlist/NOTES.txt").write_text("new\n")
    cases = task / "tests" / "cases.py"
    cases.write_text(cases.read_text() + "\n# changed\n")
    problems = validate(task)
    assert f"{rel}: recorded from another version of the reference (changed: {LEXICON}; " \
           "added: environment/workspace/wordlist/NOTES.txt)" in problems[0], problems
    assert any(p.startswith("tests/cases.py: changed since tests/golden.json was recorded")
               for p in problems), problems
    assert not any(golden.STALE_TEXT in p for p in problems)


def test_a_recording_without_file_digests_says_it_cannot_name_the_file(task):
    import json

    g = task / "tests" / "golden.json"
    data = json.loads(g.read_text())
    del data["files"]
    g.write_text(golden.dumps(data))
    (task / LEXICON).write_text((task / LEXICON).read_text() + "\n# changed\n")
    problems = validate(task)
    assert len(problems) == 1 and golden.STALE_TEXT in problems[0]
    assert "predates per-file digests" in problems[0]


@pytest.mark.parametrize("edit, expected", [
    (('allow = []', 'allow = []\nallowed_import = ["re"]'),
     "tests/checklist.toml [compliance].allowed_import: not a setting of package scale"),
    (('allow = []', 'allow = []\nlibrary_imports = "some"'),
     "tests/checklist.toml [compliance].library_imports: 'some' is not one of 'any', 'listed'"),
    (('[behaviours]', '[behaviour]\nx = "y"\n\n[behaviours]'),
     "tests/checklist.toml [behaviour]: not a table of the checklist"),
    (('limit = "a negative', 'empty = ""\nlimit = "a negative'),
     "tests/checklist.toml [behaviours].empty: empty"),
])
def test_the_checklists_shape_is_checked(tmp_path, edit, expected):
    task = _copy(tmp_path)
    checklist = task / "tests" / "checklist.toml"
    checklist.write_text(checklist.read_text().replace(*edit, 1))
    problems = validate(task)
    assert any(p.startswith(expected) for p in problems), problems
    # And record names it before running anything.
    r = CliRunner().invoke(main, ["record", str(task)])
    assert r.exit_code == 3 and expected in r.output and "recording 1/" not in r.output, r.output


def test_mutate_names_a_stale_recording_before_running_anything(task):
    cases = task / "tests" / "cases.py"
    cases.write_text(cases.read_text() + "\n# changed\n")
    r = CliRunner().invoke(main, ["mutate", str(task), "--max", "1"])
    assert r.exit_code == 3, r.output
    assert "tests/cases.py: changed since tests/golden.json was recorded" in r.output
    assert "Traceback" not in r.output and "mutants (" not in r.output
