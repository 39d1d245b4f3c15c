"""MDX pages: their components, comments and imports are left out of the block structure, so
that a tab's fenced example no longer swallows the headings after it (zod's API page lost five
sections that way) and a commented-out heading is none (``ingest.mdx``, parser ``mdx/1``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kenning.ingest.markdown import parse_markdown
from kenning.ingest.mdx import custom_anchor, structure
from kenning.ingest.parsers import parser_for

# As zod's docs write it: a tab's example holds a blank line, and a comment holds a heading.
PAGE = """import { Tabs, Tab } from "fumadocs-ui/components/tabs";
import { Callout } from "fumadocs-ui/components/callout";

# Defining schemas

## Refinements

### `.refine()`

{/* <Callout>
  Checks do not change the inferred type.
</Callout>

### `.refine()` */}

<Tabs groupId="lib" items={["Zod", "Zod Mini"]}>
<Tab value="Zod">
```ts
const s = z.string().refine((val) => val.length > 8);

s.parse("OH NO");
```
</Tab>
<Tab value="Zod Mini">
```ts
const s = z.string().check(z.refine((val) => val.length > 8));

z.parse(s, "OH NO");
```
</Tab>
</Tabs>

#### `abort`

By default, issues from checks are continuable.

<Callout
  type="warn"
  title="Careful"
>
  Refinement functions should never throw.
</Callout>

### `.superRefine()`

Report several issues from one check with `ctx.addIssue`.

### `z.input()` and `z.output()` [#input-output]

The input and output types.
"""


def _titles(text: str, path: str) -> list[tuple[str, str, int]]:
    return [(c.title, c.anchor, c.line_start) for c in parse_markdown(text, path)]


def test_an_mdx_pages_sections_survive_its_tabs_and_comments():
    titles = _titles(PAGE, "docs/api.mdx")
    assert [t for t, _, _ in titles] == [
        "Defining schemas",
        "Defining schemas > Refinements",
        "Defining schemas > Refinements > `.refine()`",
        "Defining schemas > Refinements > `.refine()` > `abort`",
        "Defining schemas > Refinements > `.superRefine()`",
        "Defining schemas > Refinements > `z.input()` and `z.output()`",
    ], titles
    anchors = {title: (anchor, line) for title, anchor, line in titles}
    assert anchors["Defining schemas > Refinements > `.superRefine()`"] == ("#superrefine", 44)
    assert anchors["Defining schemas > Refinements > `z.input()` and `z.output()`"][0] == "#input-output"
    # not vacuous: read as CommonMark (a .md file), the tab's code swallows the headings after it
    plain = [t for t, _, _ in _titles(PAGE, "docs/api.md")]
    assert "Defining schemas > Refinements > `.superRefine()`" not in plain
    assert any("*/}" in t for t in plain)


def test_the_excerpts_hold_the_pages_text_without_its_jsx():
    chunks = parse_markdown(PAGE, "docs/api.mdx")
    refine = next(c for c in chunks if c.anchor == "#refine")
    assert 's.parse("OH NO");' in refine.body and "Tab value" not in refine.body
    assert not any("import" in c.body or "*/}" in c.body for c in chunks)
    lines = PAGE.split("\n")
    for chunk in chunks:  # cited where the file holds them
        assert lines[chunk.line_start - 1].strip() in chunk.body
    front = "---\ntitle: API\nimport: x\n---\n\n# API\n\nText.\n"
    assert parse_markdown(front, "docs/api.mdx")[0].meta["front_matter"] == {"title": "API", "import": "x"}


def test_structure_blanks_jsx_outside_code_and_keeps_every_line():
    text = (
        'import A from "a";\nexport const meta = {\n  title: "x",\n};\n\n<Note>\n\nText <b>bold</b>.\n\n'
        "```tsx\n<Tabs>\n{/* kept */}\n```\n</Note>\n"
    )
    read = structure(text).split("\n")
    assert read[:5] == ["", "", "", "", ""]  # the ESM block, to its blank line
    assert read[5] == "" and read[13] == ""  # the component's tags
    assert read[7] == "Text <b>bold</b>."  # a tag inside text stays
    assert read[10:12] == ["<Tabs>", " " * len("{/* kept */}")]  # code stays; a comment is blank wherever it is
    assert len(read) == len(text.split("\n"))


_PIECES = ["<Tab>", "</Tab>", "<Tabs\n", "```", "~~~", "{/*", "*/}", "import x", "# H", "\n", "a", " ", ">"]


@given(st.lists(st.sampled_from(_PIECES)).map("".join))
def test_structure_keeps_the_lines_of_any_text(text):
    assert structure(text).count("\n") == text.count("\n")


def test_fumadocs_anchors_and_the_parser_name():
    assert custom_anchor("Stringbools [#stringbool]") == ("Stringbools", "stringbool")
    assert custom_anchor("Arrays [of] things") == ("Arrays [of] things", "")
    assert parser_for("docs/api.mdx") == "mdx/2" and parser_for("docs/api.md") == "markdown/9"
