"""Linters' and formatters' settings, read from the project's configuration files.

These files are not indexed (no parser reads TOML, INI or JSON), yet they are where a
project keeps its mechanical conventions: line length, the rules a linter enforces, the
formatter in use. The pack reads them from disk, like the README, and shows one line of
settings per file; each file's fingerprint goes into the manifest's sources.
"""

from __future__ import annotations

import configparser
import hashlib
import json
import os
import tomllib
from pathlib import Path

from kenning.files import inside_root

TOOLS = (
    "ruff",
    "black",
    "isort",
    "flake8",
    "mypy",
    "pylint",
    "pyright",
    "yapf",
    "pydocstyle",
    "pycodestyle",
    "autopep8",
    "codespell",
    "docformatter",
    "pyink",
    "blue",
)
JS_TOOLS = ("prettier", "eslintConfig", "stylelint", "standard", "xo")
JS_DEV_TOOLS = ("eslint", "prettier", "stylelint", "@biomejs/biome", "standard", "xo", "typescript")
INI_FILES = ("setup.cfg", "tox.ini", ".flake8", ".isort.cfg", ".pylintrc", "pylintrc", "mypy.ini", ".pydocstyle")
FILES = (".editorconfig", "pyproject.toml", "ruff.toml", ".ruff.toml", *INI_FILES, "package.json")
MAX_BYTES = 200_000
MAX_TEXT = 600


class Settings:
    """One configuration file's settings, as a line of text, and the file's fingerprint."""

    __slots__ = ("path", "text", "fingerprint")

    def __init__(self, path: str, text: str, fingerprint: str) -> None:
        self.path, self.text, self.fingerprint = path, text, fingerprint


def read_all(root: Path) -> list[Settings]:
    """The settings found at the project root, in ``FILES`` order; unreadable files, and files
    whose links lead out of the project (``files.inside_root``), are skipped."""
    found = []
    root_real = os.path.realpath(root)
    for name in FILES:
        real = inside_root(root_real, os.fspath(root / name))
        try:
            if real is None or not os.path.isfile(real) or os.path.getsize(real) > MAX_BYTES:
                continue
            with open(real, "rb") as handle:
                raw = handle.read()
        except OSError:
            continue
        text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
        try:
            shown = _READERS.get(name, _ini)(text, name)
        except (ValueError, configparser.Error):
            continue  # a file its own tools would reject says nothing reliable
        if shown:
            found.append(Settings(name, _cut(shown), hashlib.sha256(raw).hexdigest()))
    return found


def _pyproject(text: str, name: str) -> str:
    data = tomllib.loads(text)
    tool = data.get("tool", {}) if name == "pyproject.toml" else {"ruff": data}
    parts = []
    for key in TOOLS:
        table = tool.get(key) if isinstance(tool, dict) else None
        if isinstance(table, dict):
            flat = _flatten(table)
            parts.append(f"{key}: {flat}" if flat else key)
    return "; ".join(parts)


def _ini(text: str, name: str) -> str:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    shared = name in ("setup.cfg", "tox.ini")  # other tools' sections live there too
    parts = []
    for section in parser.sections():
        tool = section.removeprefix("tool:").split(".")[0].split(":")[0].lower()
        if shared and tool not in TOOLS:
            continue
        pairs = [f"{k} = {_one_line(v)}" for k, v in parser.items(section, raw=True) if "\n" not in v.strip()]
        if pairs:
            parts.append(f"[{section}] " + ", ".join(pairs))
    return "; ".join(parts)


def _editorconfig(text: str, name: str) -> str:
    parts: list[str] = []
    pairs: list[str] = []
    section: str | None = None
    for line in text.splitlines():
        line = line.split(";", 1)[0].split("#", 1)[0].strip() if not line.lstrip().startswith("[") else line.strip()
        if line.startswith("[") and line.endswith("]"):
            if section is not None and pairs:
                parts.append(f"{section} " + ", ".join(pairs))
            section, pairs = line, []
        elif "=" in line and section is not None:
            key, value = (s.strip() for s in line.split("=", 1))
            pairs.append(f"{key} = {value}")
    if section is not None and pairs:
        parts.append(f"{section} " + ", ".join(pairs))
    return "; ".join(parts)


def _package_json(text: str, name: str) -> str:
    data = json.loads(text)
    if not isinstance(data, dict):
        return ""
    parts = []
    for key in JS_TOOLS:
        if key in data:
            value = data[key]
            parts.append(f"{key}: {_flatten(value) if isinstance(value, dict) else _one_line(json.dumps(value))}")
    dev = {**(data.get("devDependencies") or {}), **(data.get("dependencies") or {})}
    tools = [t for t in JS_DEV_TOOLS if t in dev]
    if tools:
        parts.append("tools: " + ", ".join(tools))
    scripts = data.get("scripts") or {}
    linted = [
        f"{k} = {_one_line(str(v))}"
        for k, v in scripts.items()
        if isinstance(v, str) and any(t in v for t in ("eslint", "prettier", "stylelint", "lint", "biome"))
    ]
    if linted:
        parts.append("scripts: " + ", ".join(linted))
    return "; ".join(parts)


def _flatten(table: dict, prefix: str = "") -> str:
    """``key = value`` pairs of a table, nested tables dotted; lists of tables left out."""
    pairs = []
    for key, value in table.items():
        if isinstance(value, dict):
            inner = _flatten(value, f"{prefix}{key}.")
            if inner:
                pairs.append(inner)
        elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
            continue
        elif isinstance(value, list):
            pairs.append(f"{prefix}{key} = {', '.join(map(str, value))}")
        else:
            pairs.append(f"{prefix}{key} = {json.dumps(value) if isinstance(value, bool) else value}")
    return ", ".join(pairs)


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1].rsplit(" ", 1)[0] + "…"


_READERS = {
    ".editorconfig": _editorconfig,
    "pyproject.toml": _pyproject,
    "ruff.toml": _pyproject,
    ".ruff.toml": _pyproject,
    "package.json": _package_json,
}
