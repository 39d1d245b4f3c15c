"""`kenning ask`: one question, routed to the right mode, answered in the contract."""

from __future__ import annotations

from pathlib import Path

import click

from kenning.interfaces.cli.common import Bounded, emit_answer, json_option, now, project_option, resolve_project
from kenning.interfaces.cli.plain import DEFAULT_LIMIT, LIMIT_RANGE
from kenning.interfaces.render import answer_text


@click.command()
@click.argument("question")
@click.option(
    "--all-projects",
    is_flag=True,
    help="Ask every registered project (read-only; confidential ones excluded) and the transverse "
    "memory; one list ranked by RRF, labelled by project.",
)
@click.option(
    "--since", default=None, metavar="YYYY-MM-DD", help="With --all-projects: only facts dated from this day."
)
@click.option(
    "--until", default=None, metavar="YYYY-MM-DD", help="With --all-projects: only facts dated until this day."
)
@click.option("--type", "types", multiple=True, help="With --all-projects: only facts of this type (repeatable).")
@click.option(
    "--limit",
    type=Bounded(*LIMIT_RANGE),
    default=DEFAULT_LIMIT,
    show_default=True,
    help="Most excerpts to return (in the merged list with --all-projects).",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Show where each score came from (in hybrid mode: each list's rank "
    "and contribution; with --all-projects also the rank in its project and the RRF score).",
)
@project_option
@json_option
def ask(
    question: str,
    all_projects: bool,
    since: str | None,
    until: str | None,
    types: tuple[str, ...],
    limit: int,
    explain: bool,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Ask one question: the rule router picks the mode (lexical, hybrid, graph, core, freshness) and says why."""
    if all_projects:
        from kenning import registry
        from kenning.across.answers import ask_all
        from kenning.across.stores import OneShot
        from kenning.across.window import check_window
        from kenning.config import kenning_home, load_project

        home = kenning_home()
        since, until = check_window(since, until)
        answer = ask_all(
            question,
            registry.list_entries(home),
            now=now(),
            limit=limit,
            home=home,
            since=since,
            until=until,
            types=types,
            explain=explain,
            stores=OneShot(load_project),
        )
    else:
        from kenning.answer.ask import ask_project
        from kenning.errors import UsageError

        if since or until or types:
            raise UsageError(
                "--since, --until and --type go with --all-projects",
                hint="for one project, use `kenning search --since … --type …`",
            )
        answer = ask_project(
            resolve_project(project_path, across=True), question, now=now(), limit=limit, explain=explain
        )
    emit_answer(answer, as_json, lambda shown: answer_text(shown, explain=explain))
