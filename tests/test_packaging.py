"""What a package registry gets: `python -m build` makes an sdist and a wheel
(the C++ core compiled again, ccache serving its objects), whose
metadata says what the project is and that it runs on Linux only, with the
README as its long description; the sdist carries the sources that build it
and leaves the bundled tasks in the repository."""

from __future__ import annotations

import email.parser
import importlib.util
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_metadata_a_registry_expects():
    project = PYPROJECT["project"]
    assert "Operating System :: POSIX :: Linux" in project["classifiers"]
    assert not any(c.startswith("Operating System ::") and "Linux" not in c
                   for c in project["classifiers"])
    assert {"Homepage", "Documentation", "Source", "Issues", "Changelog"} <= set(project["urls"])
    assert project["license"] == {"text": "MIT"} and (ROOT / "LICENSE").is_file()
    assert project["readme"] == {"file": "README.md", "content-type": "text/markdown"}
    # Every extra scripts/setup.sh knows of exists, and the other way round.
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    tiers = [line.split("]=", 1)[1] for line in setup.splitlines() if line.strip().startswith("[")
             and "]=" in line]
    named = {e for t in tiers for e in t.strip('"').split("|")[1].split(",") if e}
    assert named == set(project["optional-dependencies"])


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build package is not installed (the dev extra; scripts/setup.sh --with test)")
    out = tmp_path_factory.mktemp("dist")
    # No isolation: the build backend is the venv's own (as scripts/setup.sh
    # installs it), nothing is fetched. The wheel is built from the checkout in
    # a build directory of its own (build/packaging, kept): the compiler sees
    # the same source paths as the editable install's, so ccache serves every
    # object, and a second run is incremental. The sdist is checked to carry
    # every source file that build reads.
    for what in (["--sdist"], ["--wheel", "-C", f"build-dir={ROOT / 'build' / 'packaging'}"]):
        r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", *what, "--outdir",
                            str(out), str(ROOT)], capture_output=True, text=True, timeout=1800)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


@pytest.mark.slow
def test_sdist_and_wheel_build_and_carry_what_they_should(dist):
    version = PYPROJECT["project"]["version"]
    sdist = dist / f"frontier_measure-{version}.tar.gz"
    wheels = list(dist.glob(f"frontier_measure-{version}-*-linux_*.whl"))
    assert sdist.is_file() and len(wheels) == 1, sorted(p.name for p in dist.iterdir())

    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("pyproject.toml", "CMakeLists.txt", "README.md", "LICENSE", "CHANGELOG.md"):
        assert needed in names, needed
    tracked = subprocess.run(["git", "ls-files", "cpp", "simulators", "python"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    assert tracked and not set(tracked) - names, sorted(set(tracked) - names)[:10]
    assert not any(n.startswith(("tasks/", "tests/", "bench/", ".venv", "build/")) for n in names)
    assert sdist.stat().st_size < 5 << 20

    with zipfile.ZipFile(wheels[0]) as whl:
        files = set(whl.namelist())
        meta_name = next(n for n in files if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(whl.read(meta_name).decode())
    assert any(n.startswith("frontier_measure/_core") and n.endswith(".so") for n in files)
    for needed in ("frontier_measure/fm-init", "frontier_measure/py.typed",
                   "frontier_measure/schemas/result.schema.json"):
        assert needed in files, needed
    assert any(n.startswith("frontier_measure/machines/") for n in files)
    assert meta["Name"] == "frontier-measure" and meta["Version"] == version
    assert "Operating System :: POSIX :: Linux" in meta.get_all("Classifier")
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().strip().startswith(
        (ROOT / "README.md").read_text().strip().splitlines()[0])
    assert any(u.startswith("Documentation, https://") for u in meta.get_all("Project-URL"))
    assert meta["Requires-Python"] == ">=3.11"
    assert "kernel" in meta.get_all("Provides-Extra")
