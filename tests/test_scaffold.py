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
    assert doc["metadata"]["license"] == "MIT (environment/workspace/LICENSE)"
    assert doc["metadata"]["frontier"]["entry"] == "tinylib"
    assert doc["metadata"]["frontier"]["import"] == []
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


def test_task_new_reads_the_workspace_copy_whatever_the_tool_has_installed(tmp_path, monkeypatch):
    # A package named like one installed where the tool runs (click), and a
    # relative destination, as the README's example has it.
    src = tmp_path / "click-0.0"
    (src / "click").mkdir(parents=True)
    (src / "click" / "__init__.py").write_text("def only_in_this_copy(x):\n    return x\n")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["task", "new", "drafts/click", "--from", str(src)])
    assert out.exit_code == 0, out.output
    checklist = tomllib.loads((tmp_path / "drafts/click/tests/checklist.toml").read_text())
    assert set(checklist["behaviours"]) == {"only-in-this-copy"}


def test_an_api_kept_in_submodules_is_drafted_and_imported_with_the_entry(tmp_path):
    src = tmp_path / "verlib-1.0"
    (src / "verlib").mkdir(parents=True)
    (src / "verlib" / "__init__.py").write_text('__version__ = "1.0"\n')
    (src / "verlib" / "version.py").write_text(
        "class Version:\n    def __init__(self, s):\n        self.parts = s.split('.')\n\n"
        "    def bump(self):\n        return self\n")
    (src / "verlib" / "_private.py").write_text("def hidden():\n    pass\n")
    (src / "LICENSE.APACHE").write_text("Apache License\nVersion 2.0, January 2004\n")
    (src / "LICENSE.BSD").write_text(
        "Redistribution and use in source and binary forms, with or without modification\n")
    dest = tmp_path / "task"
    out = CliRunner().invoke(main, ["task", "new", str(dest), "--from", str(src)])
    assert out.exit_code == 0, out.output
    doc = tomllib.loads((dest / "task.toml").read_text())
    assert doc["metadata"]["frontier"]["import"] == ["verlib.version"]
    assert doc["metadata"]["license"] == ("Apache-2.0 OR BSD-2-Clause (environment/workspace/"
                                          "LICENSE.APACHE, environment/workspace/LICENSE.BSD)")
    assert "version.Version.bump" in (dest / "tests/cases.py").read_text()
    # The setting loads, and a case calls the submodule's API through it.
    from frontier_measure import runners
    from frontier_measure.worker import import_entry

    task, _ = runners.load(dest)
    assert task.imports == ("verlib.version",)
    import sys

    sys.path.insert(0, str(dest / "environment" / "workspace"))
    try:
        module = import_entry("verlib", task.imports)
        assert module.version.Version("1.2").parts == ["1", "2"]
    finally:
        sys.path.remove(str(dest / "environment" / "workspace"))
        for name in [n for n in sys.modules if n.startswith("verlib")]:
            del sys.modules[name]


def test_an_import_that_is_not_a_submodule_is_named(tmp_path):
    src = _project(tmp_path / "tinylib-1.0")
    dest = tmp_path / "task"
    assert CliRunner().invoke(main, ["task", "new", str(dest), "--from", str(src)]).exit_code == 0
    toml = dest / "task.toml"
    toml.write_text(toml.read_text().replace("import = []", 'import = ["os", "tinylib.nothere"]'))
    from frontier_measure import runners

    with pytest.raises(TaskError) as err:
        runners.load(dest)
    assert "import[0]: 'os' is not a submodule of the entry" in str(err.value.problems)
    toml.write_text(toml.read_text().replace('"os", ', ""))
    with pytest.raises(TaskError) as err:
        runners.load(dest)
    assert "import[0]: 'tinylib.nothere' is neither tinylib/nothere.py" in str(err.value.problems)
