"""Vue and Svelte single-file components (``ingest.components``): the script read as the
JavaScript or TypeScript it is, at the file's own lines; the template or markup and the style by
their lines; the component a symbol, each component its markup shows a call of it."""

from __future__ import annotations

import pytest

from kenning.ingest.components import nuxt_name, parse_component
from kenning.ingest.grammars import family_of
from kenning.ingest.parsers import COMPONENT_PARSER, load_relations, parser_for

VUE = """<script setup lang="ts">
import { computed } from 'vue'
import StatusPoll from './StatusPoll.vue'

const props = defineProps<{ status: Status }>()
const { toggleReblog } = useStatusActions({ status: props.status })

function reply() {
  navigateToStatus(props.status)
}
</script>

<template>
  <div class="status-card">
    <StatusPoll v-if="status.poll" :status="status" />
    <status-actions :status="status" />
    <LazyStatusMedia :status="status" />
    <button @click="reply">Reply</button>
    <!-- <OldPoll :status="status" /> -->
  </div>
</template>

<style scoped lang="scss">
.status-card { padding: 1rem; }
</style>
"""

SVELTE = """<script>
  import Counter from './Counter.svelte';
  export let name = 'world';

  function greet() {
    alert(`Hello ${name}`);
  }
</script>

<h1>Hello {name}!</h1>
{#if name}
  <Counter start={1} />
{/if}
<button on:click={greet}>Greet</button>
<svelte:head><title>Hello</title></svelte:head>

<style>
  h1 { color: purple; }
</style>
"""


def _by_title(chunks):
    return {c.title: c for c in chunks}


def test_vue_and_svelte_files_are_read_as_components():
    assert parser_for("app/components/status/StatusCard.vue") == COMPONENT_PARSER
    assert parser_for("src/routes/+page.svelte") == COMPONENT_PARSER
    # their scripts call and are called by JavaScript and TypeScript
    assert family_of("app/components/StatusCard.vue") == family_of("app/composables/status.ts") == "javascript"
    assert family_of("src/lib/Counter.svelte") == "javascript"


def test_a_vue_component_is_cut_by_its_blocks_at_the_files_own_lines():
    chunks, _ = load_relations(COMPONENT_PARSER)(VUE, "app/components/StatusCard.vue")
    titles = _by_title(chunks)
    reply = titles["function reply() {"]
    assert (reply.line_start, reply.line_end, reply.meta["language"]) == (8, 10, "typescript")
    assert reply.body == "function reply() {\n  navigateToStatus(props.status)\n}"
    template = titles["StatusCard.vue template"]
    assert (template.line_start, template.line_end, template.meta["language"]) == (13, 21, "vue")
    assert template.body.startswith("<template>") and "<StatusPoll" in template.body
    style = titles["StatusCard.vue style"]
    assert (style.line_start, style.meta["language"]) == (24, "scss")  # a stylesheet: weighed as one
    # nothing of another block in an excerpt, no tag of a script or style in any
    assert not any("<script" in c.body or "</style>" in c.body or "<style" in c.body for c in chunks)
    assert "status card" in template.keywords.lower()
    assert [c.line_start for c in chunks] == sorted(c.line_start for c in chunks)


def test_a_vue_components_relations_name_it_and_what_it_uses():
    chunks, relations = parse_component(VUE, "app/components/StatusCard.vue")
    first = chunks[0]
    component = relations.symbols[0]
    assert (component.qualname, component.kind) == ("StatusCard", "component")
    # at its first excerpt's lines: the excerpt an answer shows for the component
    assert (component.line_start, component.line_end) == (first.line_start, first.line_end)
    assert ("reply", 8, 10) in {(s.qualname, s.line_start, s.line_end) for s in relations.symbols}
    calls = {(r.target, r.scope, r.line) for r in relations.refs if r.type == "calls"}
    # the script's top-level calls are the component's, a function's its own
    assert ("useStatusActions", "StatusCard", 6) in calls
    assert ("navigateToStatus", "reply", 9) in calls
    # the components its template shows: PascalCase, kebab-case and Nuxt's lazy prefix; no HTML element
    assert {("StatusPoll", 15), ("StatusActions", 16), ("StatusMedia", 17)} <= {
        (target, line) for target, scope, line in calls if scope == "StatusCard"
    }
    assert not {"Div", "Button", "div", "button", "Template", "OldPoll"} & {t for t, _, _ in calls}
    imports = [(r.target_kind, r.target) for r in relations.refs if r.type == "imports"]
    assert imports == [("module", "vue"), ("stem", "app/components/StatusPoll.vue")]


def test_a_svelte_component_reads_its_script_markup_and_style():
    chunks, relations = parse_component(SVELTE, "src/lib/Greeting.svelte")
    titles = _by_title(chunks)
    greet = titles["function greet() {"]
    assert (greet.line_start, greet.line_end, greet.meta["language"]) == (5, 7, "javascript")
    markup = titles["Greeting.svelte markup"]
    assert markup.line_start == 10 and "{#if name}" in markup.body
    assert titles["Greeting.svelte style"].meta["language"] == "css"
    used = {r.target for r in relations.refs if r.type == "calls" and r.scope == "Greeting"}
    assert "Counter" in used and not any(":" in name for name in used)  # ``<svelte:head>``: no component


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("a/status-card.vue", "StatusCard"),
        ("a/StatusCard.vue", "StatusCard"),
        ("src/routes/+page.svelte", "+page"),
        ("src/lib/ArticleList/index.svelte", "ArticleList"),  # as ``import ArticleList from '$lib/ArticleList'``
    ],
)
def test_a_component_is_named_after_its_file(path, name):
    _, relations = parse_component("<template><p>x</p></template>\n", path)
    assert relations.symbols[0].qualname == name


def test_a_component_without_a_script_or_with_a_broken_one_keeps_its_excerpts():
    chunks, relations = parse_component("<template>\n  <UserCard />\n</template>\n", "a/Card.vue")
    assert [c.title for c in chunks] == ["Card.vue template"]
    assert [(r.target, r.line) for r in relations.refs] == [("UserCard", 2)]
    broken = "<script>\nfunction (((\n</script>\n<template>\n  <p>x</p>\n</template>\n"
    chunks, _ = parse_component(broken, "a/Broken.vue")
    assert "Broken.vue template" in {c.title for c in chunks}
    assert chunks and all(c.body.strip() for c in chunks)


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("app/components/nav/button/Home.vue", "NavButtonHome"),
        ("app/components/status/StatusCard.vue", "StatusCard"),  # the folder's word begins the file's name
        ("app/components/modal/DurationPicker.vue", "ModalDurationPicker"),
        ("components/base/index.vue", "Base"),
        ("components/Card.vue", "Card"),
        ("src/lib/Card.svelte", None),  # no ``components/`` folder: no name of Nuxt's
    ],
)
def test_nuxt_names_a_component_by_its_folders_and_file(path, name):
    assert nuxt_name(path) == name


def test_a_component_in_a_folder_is_also_the_symbol_nuxt_names():
    _, relations = parse_component("<template><p>x</p></template>\n", "app/components/nav/button/Home.vue")
    assert [(s.qualname, s.kind) for s in relations.symbols] == [("Home", "component"), ("NavButtonHome", "component")]
    _, relations = parse_component("<template><p>x</p></template>\n", "app/components/status/StatusCard.vue")
    assert [s.qualname for s in relations.symbols] == ["StatusCard"]


ASTRO = """---
import Layout from '../layouts/Layout.astro';
import Card from '../components/Card.astro';

const posts = await getCollection('blog');

function byDate(a, b) {
  return b.data.date - a.data.date;
}
---

<Layout title="Blog">
  {posts.sort(byDate).map((post) => <Card href={post.slug} />)}
</Layout>

<script>
  document.querySelector('h1')?.addEventListener('click', () => track('title'));
</script>

<style>
  h1 { color: red; }
</style>
"""


def test_an_astro_component_reads_its_frontmatter_as_typescript():
    assert parser_for("src/pages/blog.astro") == COMPONENT_PARSER
    assert family_of("src/components/Card.astro") == "javascript"
    chunks, relations = parse_component(ASTRO, "src/pages/blog.astro")
    titles = _by_title(chunks)
    by_date = titles["function byDate(a, b) {"]
    assert (by_date.line_start, by_date.line_end, by_date.meta["language"]) == (7, 9, "typescript")
    template = titles["blog.astro template"]
    assert (template.line_start, template.line_end, template.meta["language"]) == (12, 14, "astro")
    assert not any(line.strip() == "---" for c in chunks for line in c.body.splitlines())  # no fence in any
    assert titles["blog.astro style"].meta["language"] == "css"
    calls = {(r.target, r.scope) for r in relations.refs if r.type == "calls"}
    # the frontmatter's calls and the client script's are the component's; its markup shows two
    assert {("getCollection", "Blog"), ("track", "Blog"), ("Layout", "Blog"), ("Card", "Blog")} <= calls
    imports = [r.target for r in relations.refs if r.type == "imports"]
    assert imports == ["src/layouts/Layout.astro", "src/components/Card.astro"]


def test_an_astro_file_without_frontmatter_is_markup():
    chunks, relations = parse_component("<html>\n  <Header />\n</html>\n", "src/pages/about.astro")
    assert [c.title for c in chunks] == ["about.astro template"]
    assert [r.target for r in relations.refs] == ["Header"]
