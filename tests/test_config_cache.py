"""config.toml is read through a cache of its parsed form; the text always decides."""

from __future__ import annotations

import json
import os

import pytest

from kenning.config import PARSED_CONFIG, load_project
from kenning.errors import UsageError


def test_the_parsed_config_is_kept_beside_the_text_it_came_from(make_project):
    project = make_project({"a.md": "# A\n"})
    kept = json.loads((project.state_dir / PARSED_CONFIG).read_text(encoding="utf-8"))
    assert kept["toml"] == (project.state_dir / "config.toml").read_text(encoding="utf-8")
    assert kept["parsed"]["name"] == "demo"


def test_an_edited_config_takes_effect_at_once(make_project):
    project = make_project({"a.md": "# A\n"})
    config = project.state_dir / "config.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('name = "demo"', 'name = "renamed"'), encoding="utf-8")
    assert load_project(project.root).name == "renamed"


def test_an_invalid_config_is_an_error_even_when_an_old_parse_is_kept(make_project):
    project = make_project({"a.md": "# A\n"})
    (project.state_dir / "config.toml").write_text('name = "demo"\ninclude = [\n', encoding="utf-8")
    with pytest.raises(UsageError, match="invalid TOML"):
        load_project(project.root)


def test_a_damaged_cache_is_ignored_and_rewritten(make_project):
    project = make_project({"a.md": "# A\n"})
    kept = project.state_dir / PARSED_CONFIG
    kept.write_text('{"toml": "name = \\"demo\\"\\n", "parsed": "not a table"', encoding="utf-8")
    assert load_project(project.root).name == "demo"
    assert json.loads(kept.read_text(encoding="utf-8"))["parsed"]["name"] == "demo"


def test_a_config_with_a_date_is_not_cached(tmp_path):
    from kenning.config import read_config

    config = tmp_path / ".kenning" / "config.toml"
    config.parent.mkdir()
    config.write_text('name = "dated"\nreviewed = 2026-11-29\n', encoding="utf-8")
    assert read_config(config)["reviewed"].isoformat() == "2026-11-29"  # parse_config refuses the key
    assert not (config.parent / PARSED_CONFIG).exists()


def test_a_cache_that_cannot_be_written_does_not_stop_the_load(make_project, monkeypatch):
    project = make_project({"a.md": "# A\n"})
    (project.state_dir / PARSED_CONFIG).unlink()

    def refuse(*args, **kwargs):
        raise PermissionError("read-only checkout")

    monkeypatch.setattr(os, "replace", refuse)
    assert load_project(project.root).name == "demo"
    assert sorted(p.name for p in (project.state_dir / "cache").iterdir()) == []
