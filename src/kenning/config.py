"""Where things live: the project directory, its config, and the machine registry.

Only interfaces call the functions that read the environment (``kenning_home``); the core
receives a ``Project`` and plain values.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

from kenning.errors import ProjectNotFound, UsageError
from kenning.files import write_atomic
from kenning.project import (
    CONFIG_HINT,
    CONFIG_NAME,
    DEFAULT_MAX_FILE_BYTES,
    STATE_DIR,
    Project,
    ProjectConfig,
    check_name,
    keep_state_out_of_git,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

PARSED_CONFIG = "cache/config.json"  # under .kenning/: config.toml as last parsed

CONFIG_TEMPLATE = """\
# kenning project configuration (meant to be committed).
name = {name}
# A confidential project is never read by cross-project search or another project's pack.
confidential = false
# Globs relative to the project root. Empty include = every supported file.
include = []
exclude = []
# Files larger than this many bytes are skipped (reason: too_large); a document (Markdown,
# reStructuredText, AsciiDoc, a manual page) from four times as many, a Jupyter notebook from ten
# times (its cells' outputs are not read).
max_file_bytes = {max_bytes}

[pack]
# Core pack budget, in estimated tokens (characters / 4).
budget_tokens = 1500
"""


def kenning_home(environ: dict[str, str] | None = None) -> Path:
    """``KENNING_HOME``, else the XDG data directory (``~/.local/share/kenning``)."""
    env = os.environ if environ is None else environ
    if env.get("KENNING_HOME"):
        return Path(env["KENNING_HOME"]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("kenning", appauthor=False))


def default_name(root: Path) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", root.resolve().name).strip("-.")
    return name or "project"


def find_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding ``.kenning/config.toml``."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / STATE_DIR / CONFIG_NAME).is_file():
            return candidate
    raise ProjectNotFound(
        f"no kenning project at or above {start}",
        hint="run `kenning init` in the project root, or pass --project PATH",
    )


def load_project(path: Path, environ: dict[str, str] | None = None) -> Project:
    """The project at or above ``path``; ``KENNING_DATABASE_URL`` (level 2) overrides its
    ``store``."""
    root = find_root(path)
    config_path = root / STATE_DIR / CONFIG_NAME
    config = parse_config(read_config(config_path), default_name(root), config_path)
    url = (os.environ if environ is None else environ).get("KENNING_DATABASE_URL")
    if url:
        config = parse_config({**read_config(config_path), "store": url}, default_name(root), "KENNING_DATABASE_URL")
    return Project(root=root, config=config)


def read_config(config_path: Path) -> dict[str, Any]:
    """``config.toml`` as parsed by tomllib.

    The parsed form is kept in ``.kenning/cache/config.json`` beside the exact text it came
    from, so a command whose config did not change skips the TOML parser, whose import costs
    more start-up time than a whole search. Any change to the text parses it again.
    """
    text = config_path.read_text(encoding="utf-8")
    kept_path = config_path.parent / PARSED_CONFIG
    try:
        kept = json.loads(kept_path.read_text(encoding="utf-8"))
        if kept["toml"] == text and isinstance(kept["parsed"], dict):
            return dict(kept["parsed"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # absent, unreadable or from another text: parse
    import tomllib

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{config_path}: invalid TOML: {exc}", hint=CONFIG_HINT) from exc
    _keep_parsed(kept_path, text, raw)
    return raw


def _keep_parsed(kept_path: Path, text: str, raw: dict[str, Any]) -> None:
    try:
        payload = json.dumps({"toml": text, "parsed": raw}, allow_nan=False)
    except (TypeError, ValueError):
        return  # a TOML date or a non-finite float has no JSON form: parse every time
    with contextlib.suppress(OSError):  # a read-only checkout: parse every time
        write_atomic(str(kept_path), payload.encode("utf-8"))


# Every key config.toml may hold, by section ("" is the top level, before any [section]
# header). Anything else is refused: a misplaced `confidential = true` must never be ignored.
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "": frozenset({"name", "confidential", "include", "exclude", "max_file_bytes", "store"}),
    "pack": frozenset({"budget_tokens", "context"}),
    "dense": frozenset({"enabled", "budget_seconds", "model_path", "multilingual"}),
}


def parse_config(raw: dict[str, Any], fallback_name: str, where: Path | str = "config") -> ProjectConfig:
    check_keys(raw, where)

    def strings(key: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise UsageError(f"{where}: `{key}` must be a list of glob strings", hint=CONFIG_HINT)
        return tuple(value)

    name = check_name(raw.get("name", fallback_name), where)
    max_bytes = raw.get("max_file_bytes", DEFAULT_MAX_FILE_BYTES)
    if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes <= 0:
        raise UsageError(f"{where}: `max_file_bytes` must be a positive integer", hint=CONFIG_HINT)
    store = raw.get("store")
    if store is not None and (not isinstance(store, str) or not store.startswith(("postgresql://", "postgres://"))):
        if where == "KENNING_DATABASE_URL":  # the variable, not the file, holds the wrong value
            raise UsageError(
                "KENNING_DATABASE_URL must be a postgresql:// URL",
                hint="export KENNING_DATABASE_URL=postgresql://user@host:5432/kenning, or unset it for each "
                "project's own store (docs/postgresql.md)",
            )
        raise UsageError(
            f"{where}: `store` must be a postgresql:// URL (leave it out for the local SQLite store)", hint=CONFIG_HINT
        )
    confidential = raw.get("confidential", False)
    if not isinstance(confidential, bool):
        raise UsageError(f"{where}: `confidential` must be true or false", hint=CONFIG_HINT)
    return ProjectConfig(
        name=name,
        confidential=confidential,
        include=strings("include"),
        exclude=strings("exclude"),
        max_file_bytes=max_bytes,
        store=store,
        extra={k: v for k, v in raw.items() if k not in KNOWN_KEYS[""]},
    )


def check_keys(raw: dict[str, Any], where: Path | str) -> None:
    """Refuse any key ``KNOWN_KEYS`` does not list, naming the file, the line and the
    closest known key."""
    for key, value in raw.items():
        if key in KNOWN_KEYS[""]:
            continue
        if key in KNOWN_KEYS and isinstance(value, dict):
            for inner in value:
                if inner not in KNOWN_KEYS[key]:
                    _refuse(where, key, inner)
            continue
        _refuse(where, "", key)


def _refuse(where: Path | str, section: str, key: str) -> None:
    import difflib  # only on the error path (start-up time)

    shown = f"{section}.{key}" if section else key
    line = _line_of(where, section, key)
    place = f"{where}:{line}" if line else f"{where}"
    if section and key in KNOWN_KEYS[""]:
        advice = f"`{key}` is a top-level key: move it above the first [section] header"
    else:
        known = [f"{s}.{k}" if s else k for s, keys in KNOWN_KEYS.items() for k in sorted(keys)]
        close = difflib.get_close_matches(shown, known, n=1, cutoff=0.5) or difflib.get_close_matches(
            key, known, n=1, cutoff=0.5
        )
        advice = f"did you mean `{close[0]}`?" if close else "known keys: " + ", ".join(known)
    raise UsageError(
        f"{place}: unknown configuration key `{shown}`; {advice}",
        hint=CONFIG_HINT,
    )


def _line_of(where: Path | str, section: str, key: str) -> int | None:
    """The line of ``key`` in ``section`` of the file ``where`` (best effort: error path)."""
    try:
        lines = Path(where).read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError):
        return None
    current = ""
    header = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")
    for number, text in enumerate(lines, 1):
        found = header.match(text)
        if found:
            current = found[1].strip().strip('"')
            if current == f"{section}.{key}".strip(".") or (not section and current.split(".")[0] == key):
                return number
            continue
        stripped = text.strip()
        name = re.split(r"\s*[=.]", stripped, maxsplit=1)[0].strip().strip("\"'")
        if current == section and name == key:
            return number
        top_level = not section and current == ""
        if top_level and stripped.startswith(key) and re.match(rf"{re.escape(key)}\s*[=.]", stripped):
            return number
    return None


def init_project(root: Path, name: str | None = None) -> tuple[Project, bool]:
    """Create ``.kenning/`` with its config and .gitignore. Returns (project, created)."""
    root = root.resolve()
    if not root.is_dir():
        raise UsageError(f"{root} is not a directory")
    state = root / STATE_DIR
    config_path = state / CONFIG_NAME
    created = not config_path.exists()
    if created:
        chosen = name or default_name(root)
        check_name(chosen, new=True)
        state.mkdir(exist_ok=True)
        config_path.write_text(
            CONFIG_TEMPLATE.format(name=json.dumps(chosen), max_bytes=DEFAULT_MAX_FILE_BYTES),
            encoding="utf-8",
        )
    keep_state_out_of_git(state)
    return load_project(root), created
