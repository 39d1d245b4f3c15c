"""The ``imports`` references of a file's top-level statements, read from its tree-sitter tree
(``tree_code``): JavaScript/TypeScript ``import``, Java ``import``, Go import blocks, Rust
``use``, C/C++ ``#include``, Ruby ``require`` and ``require_relative``; and the names those
statements bind, which the file's calls are read by (``imported_names``, ``tree_calls``)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from . import elixir_source, go_packages
from .grammars import SUFFIXES, node_text
from .relations import STANDARD_NAMESPACES, Ref
from .rust_uses import use_names, use_paths
from .tree_languages import IMPORTING
from .tree_queries import IMPORTS, query


def imports_of(node: Any, path: str) -> list[Ref]:
    """The ``imports`` references of one top-level statement (Go's import block: one per package)."""
    if node.type == "import_declaration" and path.endswith((".scala", ".sc")):
        return _scala_imports(node)
    if node.type == "import_declaration" and not path.endswith(".java"):  # Go's import block
        specs = sorted((n for n in _descendants(node) if n.type == "import_spec"), key=lambda n: n.start_byte)
        paths = [p for p in (s.child_by_field_name("path") for s in specs) if p is not None]
        imported = ((_unquote(node_text(p)), p.start_point[0] + 1) for p in paths)
        # the standard library's packages are no file of the project (``go_packages``)
        return [_go_import(p, line) for p, line in imported if not go_packages.is_standard(p)]
    if node.type == "use_declaration":
        return _rust_imports(node, path)
    if path.endswith(elixir_source.SUFFIXES):
        return elixir_source.imports(node, SUFFIX)
    if path.endswith(".lua"):
        return []  # a ``require`` may be anywhere in the file: ``lua_requires`` reads the whole tree once
    ref = _import(node, path)
    return [ref] if ref is not None else []


def lua_requires(root: Any) -> list[Ref]:
    """Lua's ``require("telescope.config")`` anywhere in a file (at its top, or in a function: plugins
    require lazily), each module once at its first line: an import of the file ending with
    ``telescope/config`` (``lua/telescope/config.lua``, or a folder's ``init.lua``: ``graph.aliases``),
    none when no file of the project ends so (a library's)."""
    required: list[tuple[int, str]] = []  # (line, module's path)
    for call in _descendants(root):
        if call.type != "function_call":
            continue
        name, args = call.child_by_field_name("name"), call.child_by_field_name("arguments")
        if name is None or args is None or node_text(name) != "require":
            continue
        text = next((c for c in _descendants(args) if c.type == "string_content"), None)
        if text is not None:
            module = node_text(text).strip()
            if module and not module.startswith("."):
                required.append((call.start_point[0] + 1, module.replace(".", "/")))
    found: dict[str, Ref] = {}
    for line, target in sorted(required):
        found.setdefault(target, Ref("imports", SUFFIX, target, line))
    return list(found.values())


def _scala_imports(node: Any) -> list[Ref]:
    """A Scala import as Java's (``_java_import``): ``import a.model.Person`` the file ending with
    ``a/model/Person``, ``import a.util.{A, B => C}`` those of ``A`` and ``B``, a package's ``_``
    none."""
    line = node.start_point[0] + 1
    prefix = [node_text(child) for child in node.named_children if child.type == "identifier"]
    selectors = next((child for child in node.named_children if child.type == "namespace_selectors"), None)
    if any(child.type == "namespace_wildcard" for child in node.named_children):
        return []
    names = [prefix] if selectors is None else []
    for item in selectors.named_children if selectors is not None else ():
        original = item.named_children[0] if item.type == "arrow_renamed_identifier" else item
        if original.type == "identifier":
            names.append([*prefix, node_text(original)])
    return [Ref("imports", SUFFIX, "/".join(parts), line) for parts in names if len(parts) > 1]


def _rust_imports(node: Any, path: str) -> list[Ref]:
    """A Rust ``use``'s paths as the files of the project they may name: ``crate::flags::config``
    the file whose path, its suffix left out, ends with ``flags/config`` (``SUFFIX``, in the
    importer's crate: ``graph.aliases``) and, since its last segment may be an item of that module,
    ``flags``; ``super::parse`` and ``self::inner`` the module beside or below the file's own
    (``stem``: its path, ``x.rs`` or ``x/mod.rs``). The standard library's and other crates' none."""
    line = node.start_point[0] + 1
    found: dict[tuple[str, str], Ref] = {}
    for segments, _ in use_paths(node):
        first = segments[0]
        if first == "crate":
            kind, base, rest = SUFFIX, "", segments[1:]
        elif first in ("self", "super"):
            kind, base, rest = "stem", _module_dir(path), segments
            while rest and rest[0] in ("self", "super"):
                base = posixpath.dirname(base) if rest[0] == "super" else base
                rest = rest[1:]
        else:
            continue
        for part in (rest, rest[:-1]):  # ``super::Mode``: the parent module's own file too
            if part or kind == "stem":
                target = posixpath.join(base, *part) if base else "/".join(part)
                found.setdefault((kind, target), Ref("imports", kind, target, line))
    return list(found.values())


def rust_module_ref(path: str, prefix: str, name: str, line: int) -> Ref:
    """Rust's ``mod flags;``: an import of the module's file, ``flags.rs`` or ``flags/mod.rs`` in
    the folder of the file's modules (``prefix``: the inline modules around it, ``a.b.``)."""
    return Ref("imports", "stem", posixpath.join(_module_dir(path), *prefix.split(".")[:-1], name), line)


def _module_dir(path: str) -> str:
    """The folder a Rust file's child modules sit in: its own for ``mod.rs``, ``lib.rs`` and
    ``main.rs``, else one named after it (``flags/parse.rs``: ``flags/parse``)."""
    stem = PurePosixPath(path).stem
    return posixpath.dirname(path) if stem in ("mod", "lib", "main") else str(PurePosixPath(path).with_suffix(""))


def _go_import(import_path: str, line: int) -> Ref:
    """A Go import: the package its path names, the path in the hint (``go_packages``)."""
    target = go_packages.PACKAGE + go_packages.package_name(import_path)
    return Ref("imports", "module", target, line, hint=go_packages.IMPORT_HINT + import_path)


def _import(node: Any, path: str) -> Ref | None:
    line = node.start_point[0] + 1
    match node.type:
        case "import_statement" | "export_statement":  # JS/TS, and a re-export (``export * from './x'``)
            source = node.child_by_field_name("source")
            return _module_ref(_unquote(node_text(source)), path, line) if source is not None else None
        case "import_declaration" if node.child_by_field_name("path") is None and path.endswith(".java"):
            return _java_import(_java_spec(node), line)
        case "import" if path.endswith((".kt", ".kts")):  # Kotlin's, as Java's (its alias aside)
            named = next((child for child in node.named_children if child.type == "qualified_identifier"), None)
            wildcard = node_text(node).rstrip().endswith("*")
            return _java_import(node_text(named), line) if named is not None and not wildcard else None
        case "preproc_include":
            target = node.child_by_field_name("path")
            if target is None:
                return None
            raw = node_text(target)
            if raw.startswith('"'):
                joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), _unquote(raw)))
                return Ref("imports", "file", joined, line)
            return Ref("imports", "module", raw.strip("<>"), line)
        case "call" if node.child_by_field_name("method") is not None:  # Ruby require / require_relative
            method = node_text(node.child_by_field_name("method"))
            args = node.child_by_field_name("arguments")
            if method in ("require", "require_relative") and args is not None and args.named_children:
                target = _unquote(node_text(args.named_children[0]))
                if method == "require_relative":
                    return Ref(
                        "imports", "stem", posixpath.normpath(posixpath.join(posixpath.dirname(path), target)), line
                    )
                # ``require "sinatra/base"``: a file of a ``lib/`` folder (Ruby's load path) ending so,
                # none for a gem or the standard library (``json``)
                return Ref("imports", SUFFIX, posixpath.normpath(f"lib/{target}"), line)
    return None


# A JavaScript/TypeScript import through an alias of the project's own folder: ``@/lib/db`` (the
# ``@/*`` of Next.js's and Vite's tsconfig), ``~/`` and ``~~/`` (Nuxt), ``@@/``, SvelteKit's
# ``$lib/``. No npm package is named so (a scope needs a name: ``@scope/pkg``). What the alias
# stands for (``./src/*``) is the project's configuration: the path after it is matched against
# the end of the project's file paths instead (``SUFFIX``, ``graph.aliases``).
ALIAS_PREFIXES = ("@/", "~/", "~~/", "@@/")
SVELTE_LIB = "$lib"
VIRTUAL = "virtual:"  # a Vite virtual module's id (``scoped_path``)
SUFFIX = "suffix"  # a reference target kind: a path's end, its suffix left out (``lib/db``)
# A call's hint: this prefix and the path a name was imported from through a scope
# (``scoped_path``): the project's when one of its files ends so (``graph.resolve``).
ALIAS_HINT = "from:"


def alias_path(spec: str) -> str | None:
    """The path an alias import names after its alias (``@/lib/db`` -> ``lib/db``; ``$lib/x`` ->
    ``lib/x``, SvelteKit's ``$lib`` being ``src/lib``), else None."""
    for prefix in ALIAS_PREFIXES:
        if spec.startswith(prefix) and len(spec) > len(prefix):
            return posixpath.normpath(spec[len(prefix) :])
    if spec == SVELTE_LIB or spec.startswith(SVELTE_LIB + "/"):
        return posixpath.normpath("lib" + spec[len(SVELTE_LIB) :])
    return None


def scoped_path(spec: str) -> str | None:
    """The path an import spelled as an npm scope names (``@server/commands/documentMover`` ->
    ``server/commands/documentMover``): a tsconfig alias of the project's folder (outline's
    ``@server/*``, ``@shared/*``), or a package from npm (``@babel/core``), which no file of the
    project ends with; told apart where the references are resolved, not here (the files of the
    project come and go). A Vite virtual module named after the project's file (Starlight's
    ``virtual:starlight/components/Footer``, which Astro makes of ``components/Footer.astro`` or of
    the user's override of it) likewise: ``starlight/components/Footer``. None for any other spec."""
    if spec.startswith(VIRTUAL) and "/" in spec:
        path = posixpath.normpath(spec[len(VIRTUAL) :])
        return None if path.startswith((".", "/")) else path
    if not spec.startswith("@") or spec.startswith(ALIAS_PREFIXES):
        return None
    scope, _, rest = spec[1:].partition("/")
    if not scope or not rest:
        return None
    path = posixpath.normpath(f"{scope}/{rest}")
    return None if path.startswith("..") else path


def _imported_path(spec: str, path: str) -> str | None:
    """The project path a relative or alias import names (``./x`` beside ``path``, ``@/lib/x``)."""
    if spec.startswith("."):
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)) if path else None
        return joined if joined and not joined.startswith("..") else None
    return alias_path(spec)


def _java_spec(node: Any) -> str:
    """What a Java ``import_declaration`` imports (``static org.clinic.util.Checks.named``)."""
    return node_text(node).removeprefix("import").strip(" ;")


def _java_import(spec: str, line: int) -> Ref | None:
    """A Java (or Kotlin) import as the end of the path of the file that declares what it imports (``SUFFIX``,
    ``graph.aliases``): ``org.clinic.model.Person`` is ``org/clinic/model/Person``, which
    ``src/main/java/org/clinic/model/Person.java`` ends with, and ``java.util.List`` no file of
    the project; a static import names the class's file (``import static org.clinic.Util.check``),
    a package's every class (``import org.clinic.model.*``) none."""
    static = spec.startswith("static ")
    parts = spec.removeprefix("static ").replace(" ", "").split(".")
    if static:
        parts = parts[:-1]  # the member, or ``*``: the class is the file
    if not parts or "*" in parts or not all(parts):
        return None
    return Ref("imports", SUFFIX, "/".join(parts), line)


def _java_static_names(root: Any) -> Iterator[tuple[str, str]]:
    """The methods a Java file imports by name (``import static org.clinic.util.Checks.named;``),
    each with the end of its class's file's path (``org/clinic/util/Checks``): a bare ``named()``
    calls that class's method unless the caller's own class declares one (``tree_calls``)."""
    for node in root.named_children:
        if node.type != "import_declaration":
            continue
        spec = _java_spec(node)
        if not spec.startswith("static "):
            continue
        ref = _java_import(spec, 0)
        name = spec.rpartition(".")[2].strip()
        if ref is not None and name.isidentifier():
            yield name, ref.target


def _module_ref(spec: str, path: str, line: int) -> Ref:
    if spec.startswith("."):
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
        return Ref("imports", "stem", _without_suffix(joined), line)
    aliased = alias_path(spec) or scoped_path(spec)
    if aliased is not None and not aliased.startswith(".."):
        return Ref("imports", SUFFIX, _without_suffix(aliased), line)
    return Ref("imports", "module", spec, line)


def _without_suffix(path: str) -> str:
    return path.rsplit(".", 1)[0] if PurePosixPath(path).suffix in SUFFIXES else path


def _descendants(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.named_children)


def _unquote(text: str) -> str:
    return text.strip().strip("\"'`")


class Imported(NamedTuple):
    """What a file's imports bind its top-level names to (``imported_names``)."""

    modules: dict[str, str]  # a module of the project (Go: a package not of the standard library) -> its path, or ""
    outside: set[str]  # what lies outside the project (a package, the standard library)
    project: set[str]  # imported by name from the project (``import { list } from './handlers'``)
    renamed: dict[str, str]  # of those, imported under another name: alias -> the name imported
    # imported by name from a path (``./x``, ``@/lib/x``, a scope's ``@server/x``) -> that path, its
    # suffix left out: the file a call of the name reaches (``graph.resolve``, ``ALIAS_HINT``)
    scoped: dict[str, str]


def imported_names(root: Any, language: str, path: str = "") -> Imported:
    """The names the file binds at top level, by its imports' sources (``Imported``)."""
    found_names = Imported({}, set(), set(), {}, {})
    modules, outside, project, renamed, scoped = found_names
    if language == "rust":  # the standard library's names (``rust_uses``); the crates' are not told apart
        outside.update(name for first, name in use_names(root) if first in STANDARD_NAMESPACES)
        return found_names
    if language == "java":
        scoped.update(_java_static_names(root))
        return found_names
    if language == "elixir":  # the modules its ``alias`` statements name (``tree_calls``: a call's receiver)
        modules.update(elixir_source.aliases(root))
        return found_names
    if language not in IMPORTS:
        return found_names
    from tree_sitter import QueryCursor

    imports = query(language, "imports")
    # top-level statements only: the query over the whole tree cost as much as the calls'
    found = (QueryCursor(imports).matches(node) for node in root.named_children if node.type in IMPORTING)
    for captures in (captures for matches in found for _, captures in matches):
        if "require" in captures and node_text(captures["require"][0]) != "require":
            continue
        source = node_text(captures["source"][0]).strip("\"'`")
        if language == "lua":  # ``local config = require("telescope.config")``: a module, the project's or not
            modules[node_text(captures["alias"][0])] = ""
            continue
        if language == "go":
            alias = captures.get("alias")
            name = node_text(alias[0]) if alias else go_packages.package_name(source)
            if go_packages.is_standard(source):
                outside.add(name)
            else:
                modules[name] = source
            continue
        own = source.startswith(".") or alias_path(source) is not None  # ``@/lib/db``: the project's
        through = _imported_path(source, path) if own else scoped_path(source)  # ``@server/x``: or npm's
        for capture in ("alias", "name"):
            for node in captures.get(capture, ()):
                if through is not None and capture == "name":  # outline's two ``DocumentMenu``: the one imported
                    scoped[node_text(node)] = _without_suffix(through)
                if capture == "alias" and own:  # ``import * as users from './users'``: the path it names
                    modules[node_text(node)] = _without_suffix(through) if through else ""
                elif capture == "alias" or not own and through is None:
                    outside.add(node_text(node))
                elif own:
                    project.add(node_text(node))
        # ``import { POST as send }``: ``send()`` calls ``POST``
        if (own or through is not None) and "original" in captures:
            renamed[node_text(captures["name"][0])] = node_text(captures["original"][0])
    return found_names
