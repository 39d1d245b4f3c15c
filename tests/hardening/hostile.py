"""Hostile inputs and how to judge the answers, shared by the property suite
(tests/hardening/test_properties.py) and the long fuzz run (bench/fuzz.py).

An answer is judged one of: ``ok``; ``typed:<Error>`` (a kenning error, or for the CLI a
click usage error: exit 2 with ``Error:``/``Usage:``); ``schema`` (the MCP SDK's argument
validation, naming the field, before kenning's code runs); ``crash`` (a Python exception or
a traceback reached the caller) or ``untyped`` (an MCP error result with no type).
"""

from __future__ import annotations

import contextlib
import io
import random
from typing import Any

from kenning.interfaces.cli.entry import run as entry

ATOMS = [
    "",
    " ",
    "*",
    "**",
    '"',
    '""',
    "a*",
    "s*",
    "con*",
    "x*",
    "^",
    "(",
    ")",
    "()",
    "NEAR(",
    "NEAR(a b, 2)",
    "AND",
    "OR",
    "NOT",
    "title:",
    "body:",
    "-",
    "--",
    "²",
    "٣",
    "½",
    "99999999999999999999999",
    "9223372036854775808",
    "-1",
    "0",
    "1",
    "42",
    "#1",
    "kn://demo/1",
    "kn://other/1",
    "kn://demo/99999999999999999999",
    "kn://",
    "\udce9",
    "\ud800",
    "\x00",
    "\n",
    "\t",
    "../../etc/passwd",
    "/etc/passwd",
    "café",
    "naïve",
    "東京",
    "🦀",
    "SELECT * FROM facts;",
    "'",
    "%",
    "_",
    "\\",
    "handler",
    "helper",
    "src/app.py",
    "docs/guide.md",
    "ADR-0001",
    "T-1",
    "rrf_fuse",
    "x" * 600,
    "y" * 60_000,
    "s* " * 166,
    "a* " * 166,
    "con* " * 120,
    "def " * 124,
    '"unterminated',
    "a:b:c",
    "{}",
    "[]",
    "null",
    "true",
    "1e309",
    "NaN",
]
CLI_SHAPES = [
    ("search", "{q}"),
    ("search", "--syntax", "fts", "{q}"),
    ("search", "{q}", "--type", "{t}"),
    ("ask", "{q}"),
    ("get", "{q}"),
    ("get", "{q}", "{q2}"),
    ("stale",),
    ("memory", "index", "{q}"),
    ("memory", "search", "{q}"),
    ("memory", "search", "--syntax", "fts", "{q}"),
    ("memory", "search", "--strict", "{q}"),
    ("memory", "get", "{q}"),
    ("memory", "timeline", "{q}"),
    ("graph", "neighbours", "{q}"),
    ("graph", "impact", "{q}"),
    ("graph", "touches", "{q}"),
    ("graph", "path", "{q}", "{q2}"),
]


def text(rng: random.Random) -> str:
    """One hostile string: an atom, a few joined, or random code points (surrogates included)."""
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(ATOMS)
    if pick < 0.75:
        joiner = rng.choice([" ", "", " OR ", " AND ", "*", '"'])
        return joiner.join(rng.choice(ATOMS) for _ in range(rng.randint(2, 5)))
    return "".join(
        chr(
            rng.choice(
                [
                    rng.randint(0, 0x7F),
                    rng.randint(0x80, 0xFFFF),
                    rng.randint(0xD800, 0xDFFF),
                    rng.randint(0x10000, 0x10FFFF),
                ]
            )
        )
        for _ in range(rng.randint(1, 40))
    )


def value(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value for an MCP argument: text mostly, odd numbers, lists, null, booleans."""
    pick = rng.random()
    if pick < 0.55:
        return text(rng)
    if pick < 0.75:
        return rng.choice([0, 1, -1, 2, 20, 21, 42, 10**6, 2**63 - 1, 2**63, -(2**63), 10**30, 99999999999999999999])
    if pick < 0.87 and depth == 0:
        return [value(rng, 1) for _ in range(rng.randint(0, 4))]
    return rng.choice([None, True, False, 1.5, {}])


def cli_argv(rng: random.Random, project_root: str) -> list[str]:
    shape = rng.choice(CLI_SHAPES)
    fill = {"q": text(rng), "q2": text(rng), "t": text(rng)}
    return [part.format(**fill) if "{" in part else part for part in shape] + ["--project", project_root]


def run_cli(argv: list[str]) -> tuple[str, int, str]:
    """(verdict, exit code, stderr) of ``kenning ARGV`` run in process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            entry(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:  # noqa: BLE001 - what the fuzz looks for
        return f"crash:{type(exc).__name__}: {str(exc)[:120]}", -1, err.getvalue()
    message = err.getvalue()
    if "Traceback" in message:
        return "crash:traceback", code, message
    if code == 0:
        return "ok", code, message
    if message.startswith("error: ") or "Error:" in message or message.startswith("Usage:"):
        return f"typed:exit{code}", code, message
    if code == 1 and "not found: #" in out.getvalue():  # `memory get`: the ids it lacks, listed, exit 1
        return "typed:NotFound", code, message
    return "untyped", code, message


def mcp_args(rng: random.Random, schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a tool: each property present or not, hostile or, sometimes, plausible."""
    args: dict[str, Any] = {}
    for name, spec in (schema.get("properties") or {}).items():
        required = name in (schema.get("required") or [])
        if not required and rng.random() < 0.4:
            continue
        if rng.random() < 0.25:
            args[name] = plausible(rng, name, spec)
        else:
            args[name] = value(rng)
    return args


def plausible(rng: random.Random, name: str, spec: dict[str, Any]) -> Any:
    kinds: set[str] = set()
    for option in spec.get("anyOf", [spec]):
        kind = option.get("type")
        kinds.update(kind if isinstance(kind, list) else [kind] if kind else [])
    if "enum" in spec:
        return rng.choice(spec["enum"])
    if "integer" in kinds:
        return rng.randint(spec.get("minimum", 0), spec.get("maximum", 5))
    if "array" in kinds:
        return [rng.choice(["1", 2, "kn://demo/3", "handler"]) for _ in range(rng.randint(1, 3))]
    if "boolean" in kinds:
        return rng.random() < 0.5
    return rng.choice(["handler", "helper stable", "src/app.py", "s*", "guide", "kn://demo/1", "1"])


def judge_mcp(result: Any) -> str:
    if not result.isError:
        return "ok"
    structured = result.structuredContent or {}
    if isinstance(structured.get("error"), dict) and structured["error"].get("type"):
        return f"typed:{structured['error']['type']}"
    message = result.content[0].text if result.content else ""
    if "validation error for" in message or "validation errors for" in message:
        return "schema"
    return f"untyped: {message[:160]}"
