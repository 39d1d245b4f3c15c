"""Vue and Svelte components in the graph (elk, a Nuxt app, walked as a new user): a composable
is called from a component's script, a component shown by another's template, a component
imported by a TypeScript file; each asked in words."""

from __future__ import annotations

import pytest
from graph_edges import calls_of, imported

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "app/composables/status.ts": "export function useStatusActions(status: string) {\n"
    "  return { toggle: () => status }\n}\n",
    "app/components/StatusPoll.vue": '<script setup lang="ts">\nconst props = defineProps<{ id: string }>()\n'
    '</script>\n\n<template>\n  <ul class="poll">\n    <li>{{ props.id }}</li>\n  </ul>\n</template>\n',
    "app/components/StatusCard.vue": '<script setup lang="ts">\n'
    "const { toggle } = useStatusActions('x')\n"
    "</script>\n\n<template>\n  <article>\n    <h2>Status</h2>\n    <p>text</p>\n  </article>\n"
    '  <footer>\n    <StatusPoll id="1" />\n  </footer>\n</template>\n',
    "src/lib/Counter.svelte": "<script>\n  export let start = 0;\n</script>\n\n<button>{start}</button>\n",
    "src/routes/Home.svelte": "<script>\n  import Counter from '../lib/Counter.svelte';\n</script>\n\n"
    "<h1>Home</h1>\n<Counter start={1} />\n",
    # SvelteKit: a component imported through ``$lib`` with its suffix, a folder's ``index.svelte``
    "src/lib/ListErrors.svelte": "<script>\n  export let errors;\n</script>\n\n<ul>{errors}</ul>\n",
    "src/lib/ArticleList/index.svelte": "<script>\n  export let articles;\n</script>\n\n<div>{articles}</div>\n",
    "src/routes/login/+page.svelte": "<script>\n  import ListErrors from '$lib/ListErrors.svelte';\n"
    "  import ArticleList from '$lib/ArticleList';\n</script>\n\n<ListErrors errors={[]} />\n<ArticleList />\n",
    # Astro: a page's frontmatter imports a component its markup shows
    "site/src/components/Card.astro": "---\nconst { href } = Astro.props;\n---\n\n<a href={href}>Read</a>\n",
    "site/src/pages/blog.astro": "---\nimport Card from '../components/Card.astro';\n---\n\n"
    '<h1>Blog</h1>\n<Card href="/a" />\n',
    # Starlight: a select imported by path, a homonym elsewhere; an icon imported from a package,
    # beside the project's own icon of that name; a ``components.ts`` (the question's word is no name)
    "site/src/components/Select.astro": "---\nconst { label } = Astro.props;\n---\n\n<select>{label}</select>\n",
    "site/src/legacy/Select.astro": "---\nconst { old } = Astro.props;\n---\n\n<select>{old}</select>\n",
    "site/src/components/Icon.astro": "---\nconst { name } = Astro.props;\n---\n\n<svg>{name}</svg>\n",
    "site/src/components/ThemeSelect.astro": "---\nimport Select from './Select.astro';\n"
    'import Icon from \'icon-pack\';\n---\n\n<Select label="Theme" />\n<Icon name="sun" />\n',
    "site/src/components.ts": "export const components = ['ThemeSelect'];\n",
    # Starlight's page imports its footer as a Vite virtual module Astro makes of the project's file;
    # its configuration's virtual module is no file
    "packages/starlight/components/Footer.astro": "---\nconst { year } = Astro.props;\n---\n\n"
    "<footer>{year}</footer>\n",
    "packages/starlight/components/Page.astro": "---\nimport Footer from 'virtual:starlight/components/Footer';\n"
    "import config from 'virtual:starlight/user-config';\n---\n\n<main>{config.title}</main>\n<Footer />\n",
    # the backend's model of the same name: Python, which no component's template shows
    "api/models.py": "class StatusPoll:\n    options = []\n",
    "app/plugins/setup.ts": "import StatusCard from '../components/StatusCard.vue'\n\n"
    "export function register() {\n  return StatusCard\n}\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_components_call_composables_and_show_one_another(make_project, engine):
    project = make_project(FILES, name="components", config=engine_config(engine, "components"))
    resync(project)
    # a composable called from a component's script: the component's excerpt holding the call
    answer = ask_project(project, "what calls useStatusActions", now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts] == ["app/components/StatusCard.vue:2-2"]
    # a component shown by another's template: the template's excerpt holding the tag
    users = ask_project(project, "which components use StatusPoll", now=NOW)
    assert [e.fact.source.uri for e in users.excerpts] == ["app/components/StatusCard.vue:5-13"]
    shown = {(e.dst.path, e.link) for e in calls_of(project, "StatusCard")}
    assert shown == {("app/components/StatusPoll.vue", "extracted"), ("app/composables/status.ts", "extracted")}
    svelte = ask_project(project, "where is Counter used", now=NOW)
    assert "src/routes/Home.svelte:5-6" in [e.fact.source.uri for e in svelte.excerpts]
    assert imported(project, "src/routes/login/+page.svelte") == {
        "src/lib/ListErrors.svelte",
        "src/lib/ArticleList/index.svelte",
    }
    lists = ask_project(project, "who uses ArticleList", now=NOW)
    assert [e.fact.source.uri for e in lists.excerpts] == ["src/routes/login/+page.svelte:6-7"]
    cards = ask_project(project, "which components use Card", now=NOW)
    assert [e.fact.source.uri for e in cards.excerpts] == ["site/src/pages/blog.astro:5-6"]
    assert imported(project, "site/src/pages/blog.astro") == {"site/src/components/Card.astro"}
    # the select its script imports, not the homonym; not the project's icon: the markup's is a package's
    theme = {(e.dst.path, e.link) for e in calls_of(project, "ThemeSelect")}
    assert theme == {("site/src/components/Select.astro", "extracted")}
    selects = ask_project(project, "which components use Select", now=NOW)
    assert [e.fact.source.uri for e in selects.excerpts] == ["site/src/components/ThemeSelect.astro:6-7"]
    footers = ask_project(project, "which components use Footer", now=NOW)
    assert [e.fact.source.uri for e in footers.excerpts] == ["packages/starlight/components/Page.astro:6-7"]
    assert imported(project, "packages/starlight/components/Page.astro") == {
        "packages/starlight/components/Footer.astro"
    }
    # imports of component files, from a component and from TypeScript
    assert imported(project, "src/routes/Home.svelte") == {"src/lib/Counter.svelte"}
    assert imported(project, "app/plugins/setup.ts") == {"app/components/StatusCard.vue"}
