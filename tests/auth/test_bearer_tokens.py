"""Tokens: created through the CLI, stored as salted hashes only, listed without secrets,
revoked, expired; bindings and the failed-attempt limit."""

from __future__ import annotations

import json
import stat
from datetime import timedelta

import pytest

from conftest import NOW
from kenning import registry
from kenning.auth import tokens
from kenning.auth.policy import FailureLimiter, ToolNeeds, check_call, within
from kenning.errors import Unauthorized


@pytest.fixture()
def registered(isolated_home, tmp_path):
    """Projects alpha and beta in the machine registry: a token binds registered projects only."""
    for name in ("alpha", "beta", "a"):
        registry.register(isolated_home, name, tmp_path / name)
    return isolated_home


def test_create_prints_the_secret_once_and_stores_only_a_salted_hash(cli, registered):
    isolated_home = registered
    made = cli(
        "token",
        "create",
        "--scope",
        "memory:read,memory:write",
        "--project",
        "alpha",
        "--project",
        "beta",
        "--path",
        "docs/",
        "--expires",
        "8w",
        "--name",
        "ci",
        "--json",
    )
    assert made.code == 0, made.err
    record = made.json()
    secret = record["secret"]
    assert secret.startswith(f"kn_{record['id']}_") and len(secret) > 40
    assert record["scopes"] == ["memory:read", "memory:write"] and record["projects"] == ["alpha", "beta"]
    assert record["paths"] == ["docs/"] and record["state"] == "active"
    stored = (isolated_home / "tokens.json").read_text()
    assert secret.split("_", 2)[2] not in stored and "digest" in stored and "salt" in stored
    assert stat.S_IMODE((isolated_home / "tokens.json").stat().st_mode) == 0o600
    listed = cli("token", "list", "--json")
    assert secret not in listed.out and "digest" not in listed.out and "salt" not in listed.out
    assert [t["name"] for t in listed.json()["tokens"]] == ["ci"]
    text = cli("token", "create", "--scope", "memory:read", "--project", "alpha")
    assert text.code == 0 and text.out.splitlines()[0].startswith("kn_") and "shown once" in text.out


def test_token_list_text_has_a_header_over_aligned_columns(cli, registered):
    """Seven columns of ids, scopes and dates in a row: without a header a reader could not tell
    a project from a path prefix, nor where a column starts."""
    made = [
        cli("token", "create", "--scope", "memory:read", "--project", "alpha", "--name", "ci"),
        cli(
            "token", "create", "--scope", "memory:read,memory:write", "--project", "alpha", "--project", "beta",
            "--path", "docs/", "--expires", "never", "--name", "laptop",
        ),
    ]  # fmt: skip
    assert all(m.code == 0 for m in made), [m.err for m in made]
    header, *rows = cli("token", "list").out.splitlines()
    assert header.split() == ["ID", "NAME", "STATE", "SCOPES", "PROJECTS", "PATHS", "EXPIRES"]
    starts = [header.index(column) for column in header.split()]
    listed = cli("token", "list", "--json").json()["tokens"]
    assert len(rows) == len(listed) == 2
    for row, token in zip(rows, listed, strict=True):
        cells = [row[start:end].strip() for start, end in zip(starts, [*starts[1:], None], strict=True)]
        assert cells == [
            token["id"],
            token["name"],
            token["state"],
            ",".join(token["scopes"]),
            ",".join(token["projects"]),
            ",".join(token["paths"]) or "-",
            token["expires"] or "never",
        ]


def test_revoke_and_expiry_make_verification_fail(cli, registered):
    isolated_home = registered
    record, secret = tokens.create(
        isolated_home, scopes=[tokens.READ], projects=["alpha"], paths=[], name="r", expires="1h", now=NOW
    )
    assert tokens.verify(isolated_home, secret, now=NOW).id == record.id
    with pytest.raises(Unauthorized, match="is expired"):
        tokens.verify(isolated_home, secret, now=NOW + timedelta(hours=1))
    revoked = cli("token", "revoke", "r", "--json")
    assert revoked.code == 0 and revoked.json()["state"] == "revoked"
    with pytest.raises(Unauthorized, match="is revoked"):
        tokens.verify(isolated_home, secret, now=NOW)
    with pytest.raises(Unauthorized, match="unknown token"):
        tokens.verify(isolated_home, secret[:-1] + ("A" if secret[-1] != "A" else "B"), now=NOW)
    assert "revoked" in cli("token", "list").out


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--scope", "memory:admin", "--project", "a"], "unknown scope(s): memory:admin"),
        (["--scope", "memory:read", "--project", "a", "--expires", "soon"], "not a duration"),
        (["--scope", "memory:read", "--project", "a", "--path", "/etc"], "not a relative path prefix"),
        (["--scope", "memory:read", "--project", "a", "--path", "docs/../src"], "not a relative path prefix"),
    ],
)
def test_bad_token_requests_are_usage_errors_that_write_nothing(cli, registered, args, fragment):
    isolated_home = registered
    result = cli("token", "create", *args)
    assert result.code == 2 and fragment in result.err
    assert not (isolated_home / "tokens.json").exists()


@pytest.mark.parametrize("projects", [["nosuchproj"], ["alpha", "nosuchproj"], ["a b"]])
def test_a_token_for_a_project_the_registry_does_not_hold_is_not_found_and_creates_nothing(cli, registered, projects):
    """`kenning token create --project nosuchproj` printed a secret for a project no server could
    serve; now it is ``NotFound`` (exit 1) naming the project, in text and JSON, and nothing is written.
    ``--project`` takes a path or a registered name: the error names both readings."""
    isolated_home = registered
    chosen = [arg for name in projects for arg in ("--project", name)]
    text = cli("token", "create", "--scope", "memory:read", *chosen)
    as_json = cli("token", "create", "--scope", "memory:read", *chosen, "--json")
    assert text.code == as_json.code == 1 and text.out == ""
    wrong = projects[-1]
    assert text.err.startswith(
        f"error: --project {wrong}: no kenning project at this path, and no project named {wrong!r} in the registry"
    )
    assert "kenning projects list" in text.err and "kn_" not in text.err
    assert json.loads(as_json.out)["error"]["type"] == "NotFound"
    assert not (isolated_home / "tokens.json").exists()
    assert cli("token", "list", "--json").json() == {"tokens": []}


def test_a_token_name_names_one_token(cli, registered):
    """Two tokens of one name left `token revoke NAME` refusing; a name in use is refused at
    creation (exit 2, nothing written), and the default names skip one taken by hand."""
    isolated_home = registered
    made = ["token", "create", "--scope", "memory:read", "--project", "alpha"]
    assert cli(*made, "--name", "token-2").code == 0
    before = (isolated_home / "tokens.json").read_bytes()
    again = cli(*made, "--name", "token-2")
    assert again.code == 2 and "a token is already named 'token-2'" in again.err and "kn_" not in again.out
    assert (isolated_home / "tokens.json").read_bytes() == before
    assert cli(*made).code == 0 and cli(*made).code == 0
    names = sorted(t["name"] for t in cli("token", "list", "--json").json()["tokens"])
    assert names == ["token-2", "token-3", "token-4"]
    assert cli("token", "revoke", "token-2").code == 0


def test_revoking_an_unknown_token_is_not_found(cli, isolated_home):
    result = cli("token", "revoke", "nope")
    assert result.code == 1 and "no token 'nope'" in result.err


def test_path_prefixes_bind_path_filters():
    assert within("docs/adr", ("docs/",)) and within("docs/", ("docs/",)) and within("src/a.py", ("docs/", "src/"))
    assert not within("doc", ("docs/",)) and not within("docs", ("docs/",)) and not within("./docs/", ("docs/",))
    token = tokens.TokenRecord(
        id="00000000",
        name="t",
        scopes=(tokens.READ,),
        projects=("alpha",),
        paths=("src/",),
        created="",
        expires=None,
        revoked=None,
        salt="",
        digest="",
    )
    recall = ToolNeeds("recall", writes=False, takes_path_filter=True, path_free_ok=False)
    assert check_call(token, "alpha", recall, {"query": "x", "path_filter": "src/kenning"}) is None
    assert check_call(token, "alpha", recall, {"query": "x"}).status == 403
    save = ToolNeeds("save_memory", writes=True, takes_path_filter=False, path_free_ok=True)
    assert "lacks scope memory:write" in check_call(token, "alpha", save, {"text": "x"}).message


def test_failure_limiter_blocks_then_forgets_after_the_window():
    limiter = FailureLimiter(limit=3, window=10)
    for t in (0, 1, 2):
        assert limiter.blocked("1.2.3.4", t) is None
        limiter.fail("1.2.3.4", t)
    assert limiter.blocked("1.2.3.4", 3) == 7 and limiter.blocked("5.6.7.8", 3) is None
    assert limiter.blocked("1.2.3.4", 10.5) is None


def test_tokens_file_is_versioned_json(registered):
    isolated_home = registered
    tokens.create(isolated_home, scopes=[tokens.READ], projects=["alpha"], paths=[], name=None, expires=None, now=NOW)
    body = json.loads((isolated_home / "tokens.json").read_text())
    assert body["schema"] == "kenning.tokens/v1" and body["tokens"][0]["expires"] is None


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe", b'{"tokens": [{"id": 1}]}', b"[1, 2]"])
def test_a_damaged_token_file_is_a_typed_error_that_changes_nothing(cli, isolated_home, body):
    path = isolated_home / "tokens.json"
    path.write_bytes(body)
    listed = cli("token", "list", "--json")
    assert listed.code != 0 and "Traceback" not in listed.err
    assert "unreadable token file" in listed.err and "kenning token create" in listed.err
    assert path.read_bytes() == body


def test_a_token_project_is_a_path_as_every_other_project_option_or_a_registered_name(
    cli, isolated_home, make_project, monkeypatch
):
    """`--project` takes a project's directory everywhere: `token create` too (the registered name
    it binds is the one the registry gives that directory); a registered name still works."""
    project = make_project({"docs/a.md": "# A\n"}, name="shop")
    assert cli("projects", "add", str(project.root)).code == 0

    def bound(*given: str) -> list[str]:
        made = cli("token", "create", "--scope", "memory:read", *[a for g in given for a in ("--project", g)], "--json")
        assert made.code == 0, made.err
        return made.json()["projects"]

    assert bound(str(project.root)) == ["shop"]
    assert bound(str(project.root / "docs")) == ["shop"]  # a folder inside it, as every --project reads
    assert bound("shop") == ["shop"]
    monkeypatch.chdir(project.root)
    assert bound(".") == ["shop"]
    assert "on shop," in cli("token", "create", "--scope", "memory:read", "--project", ".").out


def test_a_token_project_path_that_is_not_registered_says_how_to_register_it(cli, isolated_home, make_project):
    project = make_project({"docs/a.md": "# A\n"}, name="loose")  # initialised, never registered
    result = cli("token", "create", "--scope", "memory:read", "--project", str(project.root))
    assert result.code == 1 and result.out == ""
    assert result.err.startswith(f"error: --project {project.root}: the project at {project.root} is not registered")
    assert f"kenning projects add {project.root}" in result.err
    assert not (isolated_home / "tokens.json").exists()


def test_a_bare_word_naming_one_project_and_the_folder_of_another_is_refused(
    cli, isolated_home, make_project, tmp_path, monkeypatch
):
    """Inside project `outer`, `--project notes` could be its folder notes/ or the registered
    project `notes` elsewhere: a token must not silently open the other one."""
    outer = make_project({"notes/a.md": "# A\n"}, name="outer")
    other = make_project({"b.md": "# B\n"}, name="notes")
    for root in (outer.root, other.root):
        assert cli("projects", "add", str(root)).code == 0
    monkeypatch.chdir(outer.root)
    result = cli("token", "create", "--scope", "memory:read", "--project", "notes")
    assert result.code == 2 and "both the directory of project 'outer'" in result.err
    assert "./notes" in result.err
    assert not (isolated_home / "tokens.json").exists()
    made = cli("token", "create", "--scope", "memory:read", "--project", "./notes", "--json")
    assert made.code == 0 and made.json()["projects"] == ["outer"]
