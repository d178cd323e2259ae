"""The integrity of results: digests of what was judged, the seal, and the
directory results are written to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from frontier_measure import results


@pytest.fixture(autouse=True)
def own_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FM_STATE_DIR", str(tmp_path / "state"))


def tree(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("x = 1\n")
    (root / "run.sh").write_text("#!/bin/sh\n")
    return root


def test_digest_is_of_what_is_judged(tmp_path: Path):
    root = tree(tmp_path / "c")
    d0 = results.tree_digest(root)
    assert d0 == results.tree_digest(root)
    # tool caches are not judged
    (root / "pkg" / "__pycache__").mkdir()
    (root / "pkg" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    assert results.tree_digest(root) == d0
    # the executable bit, a content byte, a new file, a rename: all judged
    (root / "run.sh").chmod(0o755)
    d1 = results.tree_digest(root)
    assert d1 != d0
    (root / "pkg" / "a.py").write_text("x = 2\n")
    assert results.tree_digest(root) != d1


def test_digest_does_not_follow_links(tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "big").write_text("a")
    root = tree(tmp_path / "c")
    (root / "link").symlink_to(outside)
    d = results.tree_digest(root)
    (outside / "big").write_text("b")  # what the link points at is not the candidate's
    assert results.tree_digest(root) == d
    (root / "link").unlink()
    (root / "link").symlink_to(tmp_path)
    assert results.tree_digest(root) != d


def test_seal_verifies_and_any_edit_breaks_it(tmp_path: Path):
    res = results.new({"name": "t", "path": str(tmp_path / "nowhere"), "scale": "module"},
                      tmp_path / "gone", tmp_path / "oracle")
    res["strict_success"] = False
    results.write_result(res, tmp_path / "r" / "result.json")
    data = results.load(tmp_path / "r" / "result.json")
    assert results.verify(data) is None
    data["strict_success"] = True
    assert "edited after" in results.verify(data)
    data["strict_success"] = False
    data["seal"]["key"] = "0" * 16
    assert "another key" in results.verify(data)
    del data["seal"]
    assert "not sealed" in results.verify(data)
    st = (tmp_path / "state" / "seal.key").stat()
    assert st.st_mode & 0o777 == 0o600 and (tmp_path / "state").stat().st_mode & 0o777 == 0o700


def test_a_candidate_edited_after_it_was_judged(tmp_path: Path):
    cand = tree(tmp_path / "c")
    res = results.new({"name": "t", "path": str(tmp_path), "scale": "module"}, cand, cand)
    res["task"].pop("path")
    res["candidate"]["digest"] = results.tree_digest(cand)
    results.seal(res)
    assert results.verify(res) is None
    (cand / "pkg" / "a.py").write_text("x = 'faster now'\n")
    assert "changed after it was judged" in results.verify(res)


def test_out_directory_must_be_the_evaluators(tmp_path: Path):
    ok = results.prepare_out(tmp_path / "new" / "out")
    assert ok.is_dir() and ok.stat().st_mode & 0o777 == 0o755
    assert results.prepare_out(ok) == ok  # its own, again
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(results.UnsafeOutput, match="symbolic link"):
        results.prepare_out(tmp_path / "link")
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    open_dir.chmod(0o777)
    with pytest.raises(results.UnsafeOutput, match="writable by others"):
        results.prepare_out(open_dir)
    cand = tmp_path / "cand"
    cand.mkdir()
    with pytest.raises(results.UnsafeOutput, match="candidate"):
        results.prepare_out(cand / "results", not_inside=[cand])
    (tmp_path / "file").write_text("")
    with pytest.raises(results.UnsafeOutput, match='not a directory'):
        results.prepare_out(tmp_path / "file")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make a directory owned by another uid")
def test_out_directory_owned_by_another_account(tmp_path: Path):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    os.chown(foreign, 65534, 65534)
    with pytest.raises(results.UnsafeOutput, match="owned by uid 65534"):
        results.prepare_out(foreign)
