"""`frontier-measure task new`: a package task scaffolded from a source tree."""

from __future__ import annotations

import tarfile
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure.cli import main
from frontier_measure.scaffold import find_package, unpack
from frontier_measure.task import TaskError


def _project(root: Path) -> Path:
    pkg = root / "tinylib"
    (pkg / "tests").mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "import re\nfrom .core import Box, double\n\n__all__ = ['Box', 'double']\n")
    (pkg / "core.py").write_text(
        "import json\n\n\nclass Box:\n    def put(self, x):\n        return x\n\n\n"
        "def double(x):\n    return 2 * x\n")
    (pkg / "tests" / "test_core.py").write_text("import pytest\n")
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "core.cpython-311.pyc").write_bytes(b"\0")
    (root / "LICENSE").write_text("MIT\n")
    (root / "PKG-INFO").write_text("Name: tinylib\nLicense: MIT\n")
    (root / "setup.py").write_text("")
    return root


def test_task_new_from_a_source_tree(tmp_path):
    src = _project(tmp_path / "tinylib-1.0")
    dest = tmp_path / "task"
    out = CliRunner().invoke(main, ["task", "new", str(dest), "--from", str(src)])
    assert out.exit_code == 0, out.output
    ws = dest / "environment/workspace"
    assert (ws / "tinylib/core.py").is_file() and (ws / "LICENSE").is_file()
    assert not (ws / "tinylib/__pycache__").exists()
    assert (dest / "solution/workspace/tinylib/core.py").is_file()
    doc = tomllib.loads((dest / "task.toml").read_text())
    assert doc["metadata"]["license"] == "MIT" and doc["metadata"]["frontier"]["entry"] == "tinylib"
    checklist = tomllib.loads((dest / "tests/checklist.toml").read_text())
    assert checklist["compliance"]["allowed_imports"] == ["json", "re"]
    assert checklist["compliance"]["exclude"] == ["tinylib/tests"]
    assert set(checklist["behaviours"]) == {"box", "box-put", "double"}
    assert "Box.put" in (dest / "tests/cases.py").read_text()
    assert (dest / "tests/test.sh").is_file()
    assert {p.name for p in (dest / "prompts").iterdir()} == {"base.md", "descriptive.md",
                                                               "lazy.md"}
    again = CliRunner().invoke(main, ["task", "new", str(dest), "--from", str(src)])
    assert again.exit_code == 3 and "not empty" in again.output


def test_an_sdist_is_unpacked_and_its_package_found(tmp_path):
    src = _project(tmp_path / "tinylib-1.0")
    archive = tmp_path / "tinylib-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as t:
        t.add(src, arcname="tinylib-1.0")
    root = unpack(archive, tmp_path / "out")
    assert find_package(root, "tinylib").name == "tinylib"


def test_a_package_under_lib_is_found_and_private_ones_left_aside(tmp_path):
    # PyYAML's sdist: lib/yaml (the package) and lib/_yaml (its C bindings' shim).
    root = tmp_path / "PyYAML-6.0.2"
    for pkg in ("yaml", "_yaml"):
        (root / "lib" / pkg).mkdir(parents=True)
        (root / "lib" / pkg / "__init__.py").write_text("")
    assert find_package(root, "PyYAML").name == "yaml"
    assert find_package(root).name == "yaml"
    (root / "lib" / "other").mkdir()
    (root / "lib" / "other" / "__init__.py").write_text("")
    with pytest.raises(TaskError) as err:
        find_package(root)
    assert "lib/" in str(err.value) and "--from" in str(err.value)


def test_task_new_needs_one_source(tmp_path):
    out = CliRunner().invoke(main, ["task", "new", str(tmp_path / "t")])
    assert out.exit_code == 2
    bad = CliRunner().invoke(main, ["task", "new", str(tmp_path / "t"), "--from-pypi", "x"])
    assert bad.exit_code == 3 and "pinned NAME==VERSION" in bad.output
