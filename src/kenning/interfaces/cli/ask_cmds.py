"""`kenning ask`: one question, routed to the right mode, answered in the contract."""

from __future__ import annotations

from pathlib import Path

import click

from kenning.interfaces.cli.common import emit, json_option, now, project_option, resolve_project
from kenning.interfaces.render import answer_text


@click.command()
@click.argument("question")
@click.option("--all-projects", is_flag=True,
              help="Ask every registered project separately (confidential ones excluded); one list labelled by project.")
@click.option("--limit", type=click.IntRange(1, 100), default=10, show_default=True,
              help="Most excerpts to return (per project with --all-projects).")
@click.option("--explain", is_flag=True, help="Show where each score came from (in hybrid mode: each list's rank "
              "and contribution).")
@project_option
@json_option
def ask(question: str, all_projects: bool, limit: int, explain: bool, project_path: Path | None, as_json: bool) -> None:
    """Ask one question: the rule router picks the mode (lexical, hybrid, graph, core, freshness) and says why."""
    from kenning.answer.ask import ask_all, ask_project

    if all_projects:
        from kenning import registry
        from kenning.config import kenning_home

        answer = ask_all(question, registry.list_entries(kenning_home()), now=now(), limit=limit)
    else:
        answer = ask_project(resolve_project(project_path), question, now=now(), limit=limit, explain=explain)
    emit(answer.to_json(), as_json, lambda: answer_text(answer))
