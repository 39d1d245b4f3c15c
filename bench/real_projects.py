"""kenning on ordinary projects (not a test): four pinned sdists, synced and questioned.

Usage:
    .venv/bin/python bench/real_projects.py                    # httpx, flask, Django and click
    .venv/bin/python bench/real_projects.py --projects httpx   # one of them
    .venv/bin/python bench/real_projects.py --json --misses

For each project the script downloads the pinned source distribution with ``pip download``
(into ``--cache``, outside the repository; nothing is committed), unpacks it, puts it under git
with back-dated commits (the tree in three commits dated 2023-2024, so source dates come from
history rather than from the unpacking), then runs the real command line:

- ``kenning sync``: wall time, input MB/s (the bytes of the tree, ``.git`` excluded), peak RSS
  of the sync process, database size ÷ input size (``db_ratio``; ``level0_ratio`` leaves out the
  dense vectors, see ``bench/store_size.py``; ``--sizes`` prints where the bytes go);
- ``--level 0`` switches dense retrieval off for the bench's stores (``[dense] enabled = false``):
  the sync does not embed and the answers are lexical; ``--level 1`` (the default) keeps the
  configuration as ``kenning init`` wrote it (dense on when the extra is installed) and syncs again
  until the dense index is whole (a sync embeds for a bounded time; until then answers are lexical,
  marked degraded, and the figures would be level 0's: ``embed_s`` sums those syncs' embedding);
- ``kenning ask QUESTION --json --limit 5`` for each question of ``bench/questions/NAME.jsonl``:
  recall@5 is the share of questions with at least one expected file among the files of the
  top 5 excerpts, MRR the mean of 1/rank of the first such excerpt. An expected entry with an
  anchor (``site/content/user_guide.md#required-flags``) names that section alone (or its parts).

The questions were written by reading each project's documentation and source tree (the
files that answer them named by hand), never from kenning's output. Targets (issue 13):
database ≤ 3× the input, recall@5 ≥ 0.85.

``--set walk`` asks ``bench/questions/NAME.walk.jsonl`` instead (httpx and flask, 27 each, branch
walkanswers; Django, 32): questions written the same way, before running kenning, as a developer or an agent
asks them, in English and in French — what X does, where X is defined, who calls X, which tests
cover X, what X imports, why a design is as it is, how to configure Y, paraphrases, typos —
the expected files named from the code and docs (docs/benchmarks.md, "walkanswers"). On ``requests``
(``bench/questions/requests.walk.jsonl``, 22, two in French; a clone at its pinned commit, its long
history indexed) of its user guide's sections and code, written from reading ``docs/user/*.rst`` and
``src/requests/`` before the first run (docs/benchmarks.md, "commitlog"). On ``typer``
(``bench/questions/typer.walk.jsonl``, 22, two in French; a clone at its pinned commit: MkDocs pages whose
examples sit in ``docs_src/``, a vendored Click) written from reading ``docs/tutorial/`` and ``typer/``
before the first run (docs/benchmarks.md, "loosestart"); on ``pino`` (``bench/questions/pino.walk.jsonl``,
22, two in French; Node.js, Markdown docs) from reading ``docs/`` and ``lib/`` the same way; on ``urfavecli``
(``bench/questions/urfavecli.walk.jsonl``, 22, two in French; Go, its docs kept for v1, v2 and v3) from
``docs/v3/`` and the Go sources (docs/benchmarks.md, "versioneddocs"); on ``mdbook``
(``bench/questions/mdbook.walk.jsonl``, 22, two in French; Rust, an mdBook guide) from ``guide/src/`` and
the crates the same way; on ``black`` (``bench/questions/black.walk.jsonl``, 22, two in French; Python, MkDocs
pages in MyST Markdown) from ``docs/`` and ``src/black/``, and on ``bat`` (``bench/questions/bat.walk.jsonl``, 22,
two in French; Rust, a long README, a roff manual page, clap's help texts) from its README, ``doc/``, the manual
and ``src/``, both written by helpers that ran no search, before the first run (docs/benchmarks.md, "taskdocs");
on ``fzf`` (``bench/questions/fzf.walk.jsonl``, 22, two in French; Go, a long README and a roff manual page) and
``commander`` (``bench/questions/commander.walk.jsonl``, 22, two in French; commander.js, a long Readme, ``docs/``,
``examples/``) the same way (same section); on ``zod`` (``bench/questions/zod.walk.jsonl``, 22, two in French;
TypeScript, MDX pages, its version 3 site and translated readmes kept beside the current ones) from
``packages/docs/content/`` and ``packages/zod/src/``, and on ``gin`` (``bench/questions/gin.walk.jsonl``, 22, two
in French; Go, one long Markdown page) from ``docs/doc.md`` and the Go sources, both by helpers that ran no
search, before the first run (docs/benchmarks.md, "zodgin"); on ``trpc`` (``bench/questions/trpc.walk.jsonl``, 22, two
in French; TypeScript, a Docusaurus site in MDX with its older versions in ``www/versioned_docs/``) from
``www/docs/`` and ``packages/*/src/``, and on ``axum`` (``bench/questions/axum.walk.jsonl``, 22, two in French;
Rust, its guide in Markdown files under ``axum/src/docs/`` that rustdoc includes, runnable ``examples/``) the same
way (docs/benchmarks.md, "trpcaxum"); on ``sinatra`` (``bench/questions/sinatra.walk.jsonl``, 22, two in French; Ruby,
one long README, sinatra-contrib and rack-protection beside it) from its README and ``lib/``, and on ``fmt``
(``bench/questions/fmt.walk.jsonl``, 22, two in French; C++ headers full of macros, Markdown docs in ``doc/``) from
``doc/`` and ``include/fmt/``, both by helpers that ran no search, before the first run (docs/benchmarks.md,
"cppmacros"); on ``log4brains`` (``bench/questions/log4brains.walk.jsonl``, 22, two in French; a TypeScript
monorepo whose subject is ADRs, its own in ``docs/adr/`` and ``packages/*/docs/adr/``) and ``starlette``
(``bench/questions/starlette.walk.jsonl``, 22, two in French; Python, MkDocs pages) the same way
(docs/benchmarks.md, "adrwalk"). ``--set meta`` asks ``bench/questions/NAME.meta.jsonl`` (three each on fzf,
gin, leveldb, gson, ripgrep, mdbook, commander, pino, typer, requests, sinatra and fmt): the project's license,
how to install, build or contribute, who maintains it, and what changed in a version its changelog names,
written by a helper that ran no search, before the first run (same section).
``bench/questions/django.walk.jsonl`` (25, branch djwalk; 7 more, branch receivers) asks relation
questions only — who calls, what X calls, which tests cover, what imports, where X is used — about
Django's code, distinctive names and common method names (``Model.save``, ``QuerySet.all``,
``count``) alike, the expected files found with grep in the sdist (docs/benchmarks.md, "djwalk",
"receivers").
``bench/questions/django.fr.jsonl`` (``--set fr``, 33) is ``django.jsonl`` asked in French: each
question translated by hand as a French developer types it (accents, elisions), the same
expected files; French over a real English project (docs/benchmarks.md, "frquoted").
``bench/questions/flask.fr.jsonl`` (31) is ``flask.jsonl`` asked in French the same way: the
train set of the French bridge (glossary entries and rules are tuned on its misses, never on
Django's).
``--clone REPO --set git`` indexes a clone of a real git repository (its own history, commits and
all) instead of the pinned sdist: ``bench/questions/httpx.git.jsonl`` (34, branch walk4) asks how-to,
where-is, relation, why (CHANGELOG and commits: an expected full sha is a commit), French, exact
identifiers and paraphrases about github.com/encode/httpx at ae1b9f66 (0.28.1 and after), e.g.
``--projects httpx --clone /work/.mirror/encode+httpx/repo --set git`` (docs/benchmarks.md, "walk4").
``--reuse`` keeps the tree and store an earlier run left in ``--work`` (same level; a clone at the same
commit) instead of starting again: the questions are asked at once, and at level 1 the dense vectors are
not computed again (Django's French set: about 8 minutes of embedding saved); the sync figures are then an
incremental sync's, and the table says so.
``--set calls`` asks who calls a function and which tests cover it in projects of other
languages, read from a clone at a pinned commit (``CLONES``): ``bench/questions/cobra.calls.jsonl``
(16, Go), ``ky.calls.jsonl`` (12, TypeScript), ``leveldb.calls.jsonl`` (20, C++), ``gson.calls.jsonl``
(20, Java), ``asciidoctor.calls.jsonl`` (15, Ruby) and ``ripgrep.calls.jsonl`` (16, Rust), the callers
and tests found with grep in the source, e.g. ``--projects cobra --clone https://github.com/spf13/cobra
--set calls --level 0`` (docs/benchmarks.md, "treecalls", "cppmembers").
``--set docs`` asks how-to and what-is questions of a project's documentation: on ``cobra``
(``bench/questions/cobra.docs.jsonl``, 22) of its Markdown user guide, one long page, by section, and
the Go files that implement it, written from the guide's headings and cobra's API before the first
run (docs/benchmarks.md, "cobradocs"); on ``asciidoctor`` (``bench/questions/asciidoctor.docs.jsonl``,
20) of its AsciiDoc pages (``docs/modules/*/pages/*.adoc``), written from reading those pages
(docs/benchmarks.md, "asciidoc"); on ``ripgrep`` (``bench/questions/ripgrep.docs.jsonl``, 26, two in French) of
its ``GUIDE.md`` by section and its ``FAQ.md``, whose entries are HTML headings anchored by name
(``FAQ.md#compressed``), written from reading both before the first run (docs/benchmarks.md, "htmlheadings");
on ``ky`` (``bench/questions/ky.docs.jsonl``, 24, two in French) of its ``readme.md``, which is its whole API
reference, tips and FAQ on one page, written from reading it before the first run (same section); on
``gson`` (``bench/questions/gson.docs.jsonl``, 24, two in French) of its ``UserGuide.md``, ``README.md``
and ``Troubleshooting.md``, whose headings carry their anchors as elements (``## <a
id="default-lenient"></a> Malformed JSON not rejected``), and on ``leveldb``
(``bench/questions/leveldb.docs.jsonl``, 24, two in French) of its ``doc/*.md`` and ``README.md``, both
written from reading those files before the first run, mostly in other words than the headings'
(docs/benchmarks.md, "contextnames").
``--set api`` asks what a project's code does, in words, as a developer working on it would:
``bench/questions/gson.api.jsonl`` (20, Java) and ``ripgrep.api.jsonl`` (20, Rust), each answered by
the doc comments and code of the files it names (and a doc page where one answers too), written
from reading the source at the pinned commit before the first run (docs/benchmarks.md, "doccomments");
``leveldb.api.jsonl`` (16, C++, two in French) on leveldb's public headers and code, written the same
way by a helper that ran no search (docs/benchmarks.md, "uncovered").
PHP, C#, Kotlin, Swift and Scala (parser ``code/10``): ``bench/questions/slim.calls.jsonl`` (16) and ``slim.api.jsonl``
(16, two in French) on Slim, ``mediatr.calls.jsonl`` (14) and ``mediatr.api.jsonl`` (14, two in French)
on MediatR, ``moshi.calls.jsonl`` (16, Kotlin called from Kotlin and Java) and ``moshi.api.jsonl`` (14,
two in French) on Moshi, ``kingfisher.calls.jsonl`` (14) and ``kingfisher.api.jsonl`` (14, two in French)
on Kingfisher, ``scopt.calls.jsonl`` (12, Scala, infix calls among them) on scopt,
the callers and tests found with grep, the api questions written from reading the source, both by a
helper that ran no search, before the first run (docs/benchmarks.md, "phpcsharp").
``--set inherit`` asks what extends or implements a class and what a class extends, in English and
French: ``bench/questions/django.inherit.jsonl`` (6, on the sdist), ``gson.inherit.jsonl`` (6) and
``ripgrep.inherit.jsonl`` (6, Rust's traits; both on the clone), the subclasses and bases found with
``grep``/``git grep`` in the source before the first run (docs/benchmarks.md, "inheritance").
``bench/questions/adrtools.jsonl`` (18) asks adr-tools (a clone: nine ADRs in ``doc/adr``, shell
scripts without a suffix) why it was built as it is, how to use it, which tests cover what, in
English and French, written before the first run (docs/benchmarks.md, "scripts").
``bench/questions/click.jsonl`` (40, branch clickwalk) mixes both kinds on click 8.1.7 (docs/*.rst,
src/click/, tests/): what X does, where X is defined, who calls X, which tests cover X, imports,
why (docs/why.rst), how to configure Y, explanation questions ("how does X work"), paraphrases,
French and typos, written before the first run (docs/benchmarks.md, "clickwalk").
``--set errors`` pastes error messages as a program printed them (its values filled in, most with
their exception's class or ``Error:``, a few asked in a sentence or quoted): ``bench/questions/NAME.errors.jsonl``,
six each on django, flask, httpx, click, requests, zod, trpc, axum, gin and commander, answered by the
file that gives the message and the page that explains it; written by a helper that read the source
and docs with grep and ran no search, before the first run (docs/benchmarks.md, "pasted").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import store_size
from _common import fetch_sdist
from _trees import cloned, kept_tree, tree_bytes, under_git

REPO = Path(__file__).resolve().parent.parent
QUESTIONS = REPO / "bench" / "questions"
PROJECTS = {  # name: (requirement, folder inside the sdist)
    "httpx": ("httpx==0.27.0", "httpx-0.27.0"),
    "flask": ("flask==3.0.3", "flask-3.0.3"),
    "django": ("Django==5.0.6", "Django-5.0.6"),
    "click": ("click==8.1.7", "click-8.1.7"),
}
# Projects read from a clone only (``--clone``, no sdist): name -> the commit their questions were
# written at (``git clone`` of the repository, then that commit checked out).
CLONES = {
    "cobra": "adbc8813901bba65827259daa8e22ff94ec1f30e",  # Go
    "ky": "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f",  # TypeScript
    "asciidoctor": "ae5891df10f12dda069abea8a318c9b94d545bee",  # AsciiDoc, Ruby
    "leveldb": "78a352f47ed6c1e9d750545e9b242289185b87e1",  # C++
    "gson": "9835b6f90192f79cdf5300c528fc6212455fb6c1",  # Java
    "ripgrep": "3fce3b5bb0236da2df6d99672afb8a719642eca7",  # Rust
    "adrtools": "b3279baf9be2207d1a4f4bbd608fd0b591c72aee",  # ADRs, shell
    "slim": "038fd5713d5a41636fdff0e8dcceedecdd17fc17",  # PHP
    "mediatr": "8a64581e2570e7410c5f44835d9ea112beccbe6b",  # C#
    "moshi": "889013ec2edb8d8034902662a1dc8c4f3b3f8111",  # Kotlin, Java
    "kingfisher": "410984bf301f4fa224fe56277b3f8672cc465c79",  # Swift
    "scopt": "75cd14c9e1f517e9d1beb8de9e3427e40630f1cb",  # Scala
    "requests": "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e",  # Python, reStructuredText docs, a long history
    "typer": "9a7b2e83f6b62c750d6026b0de9ebf2026a8b8fa",  # Python, MkDocs pages, examples in docs_src/
    "pino": "b394c2c16ac6a8919cd33d7f5684a01baca1096f",  # JavaScript (Node.js), Markdown docs
    "urfavecli": "1305a08200f7c4d873e28bd2bbad1ff257c6cfc4",  # Go, MkDocs pages for v1, v2 and v3
    "mdbook": "641d06abe7d10d981ed61dd2711a30e4119666cd",  # Rust, an mdBook guide
    "black": "8947c48ef2077c3a301b03c1e814dc2e3f78436e",  # Python, MkDocs pages (MyST Markdown)
    "bat": "2ba8db9c14e5794572f5ea338c2b90404c9769cb",  # Rust, a long README, a man page, clap help texts
    "fzf": "956562daaa82ddf55ea8f7aeab56883377b742c6",  # Go, a long README, a roff manual page
    "commander": "ba6d13ddb4243e5913367734f8c159089ffe7834",  # JavaScript (Node.js), a long Readme, docs/
    "zod": "e516c3baf22615e20934116abebfed6c000222c2",  # TypeScript, MDX pages, a pnpm monorepo
    "gin": "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9",  # Go, one long Markdown page
    "trpc": "340811ba5320637fbaf48fccf3dbfdd258bd34db",  # TypeScript, Docusaurus (MDX, versioned docs)
    "axum": "3d78036dcac289d6c1d54934708acb6a5bd73686",  # Rust, docs in Markdown files rustdoc includes
    "sinatra": "cb22afd7902b566b6eaba6c4ea89739494a65d12",  # Ruby, one long README, sinatra-contrib's docs
    "fmt": "60ccad511fd680cb91d8b60a315759f71c67bef9",  # C++ headers, Markdown docs
    "log4brains": "37187fc8e0cd615c155eb27d6116e1e05681a918",  # TypeScript monorepo, its own ADRs (MADR)
    "starlette": "cb8f84f5284dc301ca7a31eb732b9e140769dd48",  # Python, MkDocs pages
    "tfvpc": "82d1929e669efef4e2ad00611b8a68e7a56e049c",  # Terraform (HCL), a long README
    "chi": "735ae2b87f8c733d616e809ae86e0985c1bc3350",  # Go, a README and _examples/
}
# The GitHub repository of each project read from a clone (``CLONES`` pins its commit; ``bench/question_sets.py``
# finds it in the team's mirror or on GitHub).
REPOSITORIES = {
    "cobra": "spf13/cobra",
    "ky": "sindresorhus/ky",
    "asciidoctor": "asciidoctor/asciidoctor",
    "leveldb": "google/leveldb",
    "gson": "google/gson",
    "ripgrep": "BurntSushi/ripgrep",
    "adrtools": "npryce/adr-tools",
    "slim": "slimphp/Slim",
    "mediatr": "jbogard/MediatR",
    "moshi": "square/moshi",
    "kingfisher": "onevcat/Kingfisher",
    "scopt": "scopt/scopt",
    "requests": "psf/requests",
    "typer": "fastapi/typer",
    "pino": "pinojs/pino",
    "urfavecli": "urfave/cli",
    "mdbook": "rust-lang/mdBook",
    "black": "psf/black",
    "bat": "sharkdp/bat",
    "fzf": "junegunn/fzf",
    "commander": "tj/commander.js",
    "zod": "colinhacks/zod",
    "gin": "gin-gonic/gin",
    "trpc": "trpc/trpc",
    "axum": "tokio-rs/axum",
    "sinatra": "sinatra/sinatra",
    "fmt": "fmtlib/fmt",
    "log4brains": "thomvaill/log4brains",
    "starlette": "encode/starlette",
    "tfvpc": "terraform-aws-modules/terraform-aws-vpc",
    "chi": "go-chi/chi",
    "httpx": "encode/httpx",  # its ``git`` set only: the others read the sdist
}


def kenning_bin() -> str:
    local = Path(sys.executable).parent / "kenning"
    return str(local) if local.exists() else "kenning"


def run_sync(root: Path, env: dict[str, str], level: int, *, kept: bool = False) -> dict[str, object]:
    """Cold sync in a child process (its own peak RSS), then a no-op resync. ``kept``: the tree and
    its store are an earlier run's (``--reuse``): the sync only does what changed since."""
    kenning = kenning_bin()
    if not kept:
        subprocess.run(
            [kenning, "init", "--project", str(root), "--name", root.name],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
        )
    if level == 0 and not kept:
        config = root / ".kenning" / "config.toml"
        config.write_text(config.read_text() + "\n[dense]\nenabled = false\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(
        [kenning, "sync", "--project", str(root), "--json"], check=True, env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    first = report = json.loads(done.stdout)
    embed = (report.get("dense") or {}).get("seconds")
    syncs = 1
    # Level 1: a sync embeds for a bounded time (``[dense] budget_seconds``) and the next carries
    # on; until every excerpt is embedded, answers are lexical, marked degraded. The questions are
    # asked once the dense index is whole, or they would measure level 0 under level 1's name.
    while level == 1 and _dense_incomplete(report) and syncs < MAX_EMBED_SYNCS:
        more = subprocess.run(
            [kenning, "sync", "--project", str(root), "--json"], check=True, env=env, capture_output=True, text=True
        )
        report = json.loads(more.stdout)
        embed = (embed or 0.0) + ((report.get("dense") or {}).get("seconds") or 0.0)
        syncs += 1
    if level == 1 and _dense_incomplete(report):
        raise SystemExit(f"{root.name}: dense index still incomplete after {syncs} syncs")
    start = time.perf_counter()
    subprocess.run([kenning, "sync", "--project", str(root)], check=True, env=env, capture_output=True)
    noop = time.perf_counter() - start
    source = tree_bytes(root)
    db = root / ".kenning" / "kenning.db"
    db_bytes = sum(p.stat().st_size for p in db.parent.glob("kenning.db*"))
    parts = store_size.breakdown(db)
    return {
        "input_mb": round(source / 1e6, 2),
        "files_indexed": first.get("coverage", {}).get("indexed"),
        "excerpts": first.get("excerpts", {}).get("added"),
        "sync_s": round(wall, 2),
        "embed_s": embed,  # the dense hook's time (level 1): of sync_s, and of the syncs that finished it
        "embed_syncs": syncs,  # syncs until the dense index was whole (level 1; 1 at level 0)
        "sync_mb_per_s": round(source / 1e6 / wall, 2),
        "peak_rss_mb": round(peak / 1024, 1) if peak > before else None,
        "db_mb": round(db_bytes / 1e6, 1),
        "db_ratio": round(db_bytes / source, 2),
        "level0_ratio": round(store_size.level0_bytes(parts) / source, 2),
        "parts_mb": {part: round(size / 1e6, 1) for part, size in parts.items()},
        "noop_resync_s": round(noop, 2),
        "reused": kept,  # an earlier run's store: sync_s and its rate are an incremental sync's
    }


MAX_EMBED_SYNCS = 40


def _dense_incomplete(report: dict) -> bool:
    """Whether a sync's report says an embedder has excerpts left to embed."""
    embedders = (report.get("dense") or {}).get("embedders") or {}
    return any(e.get("embedded", 0) < e.get("total", 0) for e in embedders.values())


def _plain(text: str) -> str:
    """``text`` without its diacritics (``où est définie`` → ``ou est definie``)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def file_of(uri: str) -> str:
    for mark in ("#", ":"):
        uri = uri.split(mark, 1)[0]
    return uri


def hit(uris: list[str], expected: set[str]) -> bool:
    """Whether an excerpt's URIs (its source's and its locations') hold an expected entry: a file
    (any excerpt of it), or a section named with its anchor (``docs/guide.md#required-flags``:
    that section, or one of its parts, ``#required-flags-part-2``)."""
    for entry in expected:
        if "#" not in entry:
            if any(file_of(uri) == entry for uri in uris):
                return True
        elif any(uri == entry or uri.startswith(f"{entry}-part-") for uri in uris):
            return True
    return False


def ask_all(
    root: Path, name: str, env: dict[str, str], question_set: str = "", plain: bool = False
) -> tuple[dict[str, object], list[dict[str, object]]]:
    file = QUESTIONS / (f"{name}.{question_set}.jsonl" if question_set else f"{name}.jsonl")
    rows = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    if plain:  # typed without accents
        rows = [{**row, "question": _plain(row["question"])} for row in rows]
    found, first, reciprocal, misses, latencies, errors = 0, 0, 0.0, [], [], 0
    ranks: list[dict[str, object]] = []
    for row in rows:
        start = time.perf_counter()
        done = subprocess.run(
            [kenning_bin(), "ask", row["question"], "--project", str(root), "--json", "--limit", "5"],
            env=env,
            capture_output=True,
            text=True,
        )
        latencies.append(time.perf_counter() - start)
        answer = json.loads(done.stdout) if done.stdout.strip() else {"excerpts": []}
        # a failed ask (a query past its time budget on a loaded machine) is no wrong answer: said apart
        error = done.stderr.strip().splitlines()[0] if done.returncode != 0 and done.stderr.strip() else None
        errors += error is not None
        expected = set(row["expected"])
        rank = None
        files = []
        for i, excerpt in enumerate(answer.get("excerpts", [])[:5], 1):
            uris = [
                u
                for u in (excerpt["source"]["uri"], *(loc.get("uri", "") for loc in excerpt.get("locations") or []))
                if u
            ]
            paths = {file_of(u) for u in uris}
            files.append(sorted(paths)[0] if paths else "?")
            if rank is None and hit(uris, expected):
                rank = i
        ranks.append({"question": row["question"], "rank": rank, "notes": answer.get("notes") or []})
        if rank:
            found += 1
            first += rank == 1
            reciprocal += 1 / rank
        else:
            misses.append(
                {
                    "question": row["question"],
                    "expected": row["expected"],
                    "got": files,
                    "mode": answer.get("mode"),
                    "degradations": answer.get("degradations"),
                    "error": error,
                }
            )
    n = len(rows)
    latencies.sort()
    return {
        "questions": n,
        "hits_at_1": round(first / n, 3) if n else None,
        "recall_at_5": round(found / n, 3) if n else None,
        "mrr_at_5": round(reciprocal / n, 3) if n else None,
        "ask_cli_p50_ms": round(latencies[n // 2] * 1000) if n else None,
        "ask_errors": errors,
        "ranks": ranks,  # each question's rank of its first expected file (None: not in the top 5), its notes
    }, misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--projects", default=",".join(PROJECTS), help="comma-separated: " + ", ".join([*PROJECTS, *CLONES])
    )
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench" / "sdists")
    parser.add_argument("--work", type=Path, default=Path("/tmp/kenning-real-projects"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print each missed question")
    parser.add_argument("--level", type=int, choices=(0, 1), default=1, help="0: dense switched off in the stores")
    parser.add_argument("--sizes", action="store_true", help="print where each database's bytes go")
    parser.add_argument("--clone", default="", help="index a clone of this git repository, not the sdist (one project)")
    parser.add_argument("--plain", action="store_true", help="ask each question without its accents, as often typed")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep a tree and store an earlier run left in --work (same level, same commit): the sync only does "
        "what changed, the dense vectors are not computed again (sync figures are then an incremental sync's)",
    )
    parser.add_argument(
        "--set",
        default="",
        help="ask bench/questions/NAME.SET.jsonl (walk: httpx, flask, django; from a clone: requests, typer, pino, "
        "urfavecli, mdbook, black, bat, fzf, commander, zod, gin, trpc, axum, sinatra, fmt, log4brains, starlette; "
        "meta: twelve clones; fr: django, "
        "flask; git: httpx, from its clone; calls: cobra, ky, leveldb, gson, asciidoctor, ripgrep, slim, mediatr, "
        "moshi, kingfisher, scopt; docs: asciidoctor, cobra, ripgrep, ky, gson, leveldb; api: gson, ripgrep, "
        "leveldb, slim, mediatr, moshi, kingfisher; errors: django, flask, httpx, click, requests, zod, trpc, "
        "axum, gin, commander)",
    )
    args = parser.parse_args()
    if args.set == "git" and not args.clone:  # its questions are about the repository's history, not an sdist
        parser.error("--set git asks about a repository's own history: pass --clone with it")
    env = {**os.environ, "KENNING_HOME": str(args.work / "home")}
    results = {}
    for name in args.projects.split(","):
        if name in CLONES and not args.clone:
            parser.error(f"{name} is read from a clone: pass --clone with its repository")
        kept = args.reuse and kept_tree(args.work / name, args.level, CLONES.get(name) if args.clone else None)
        if kept:
            root = args.work / name
        elif args.clone:
            root = cloned(args.clone, args.work / name, CLONES.get(name))
        else:
            requirement, folder = PROJECTS[name]
            root = under_git(fetch_sdist(requirement, folder, args.cache), args.work / name)
        figures = run_sync(root, env, args.level, kept=kept)
        quality, misses = ask_all(root, name, env, args.set, args.plain)
        results[name] = {**figures, **quality, "misses": misses}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, level {args.level}"
    )
    keys = [
        "input_mb",
        "files_indexed",
        "excerpts",
        "sync_s",
        "embed_s",
        "sync_mb_per_s",
        "peak_rss_mb",
        "db_mb",
        "db_ratio",
        "level0_ratio",
        "noop_resync_s",
        "questions",
        "hits_at_1",
        "recall_at_5",
        "mrr_at_5",
        "ask_cli_p50_ms",
        "ask_errors",
    ]
    print("project  " + "  ".join(keys))
    for name, r in results.items():
        print(f"{name:8} " + "  ".join(str(r[k]) for k in keys))
        if r["reused"]:
            print(f"{name:8} (--reuse: an earlier run's store; sync_s, its rate and embed_s are an incremental sync's)")
    if args.sizes:
        for name, r in results.items():
            print(f"{name:8} MB by part: " + ", ".join(f"{part} {mb}" for part, mb in r["parts_mb"].items()))
    if args.misses:
        for name, r in results.items():
            for miss in r["misses"]:
                print(
                    f"miss [{name}] {miss['question']!r}: expected {miss['expected']}, top 5 {miss['got']} "
                    f"(mode {miss['mode']})" + (f" — ask failed: {miss['error']}" if miss["error"] else "")
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
