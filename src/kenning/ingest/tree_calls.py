"""Calls in the tree-sitter languages, as ``calls`` references for the graph (``tree_code``).

A tree-sitter query per language finds the call sites in C; each becomes a reference from the
innermost definition around it (or the file), resolved by ``graph.resolve`` as Python's are:

- a plain call (``render(x)``, ``new Client()``) names a symbol; in a method of a Java, Ruby or C++
  class, where a bare ``save()`` may be a call on the method's own object, the method of that name of
  the class or its bases first (a self call's hint, the call still plain when none has it);
- a call on the method's own receiver (``this.save()``, ``self.go()``, ``this->run()``, Go's
  ``s.listen()`` in ``func (s *Server) Run()``) is a self call: the method of that name of the
  enclosing class (its hint, as Python's ``self.save()``), else of the first of its bases that
  has it (``class A extends Base`` and Java's interfaces, ``class A < Base`` and its ``include
  Logging``, ``class A : public Base``, a Go struct's embedded ``*Base``; a base another file
  defines followed into that file's bases, from the ``bases`` reference each class with bases is
  written with), else an attribute call; a call on ``super`` (``super.save()`` in JS/TS and Java)
  is one on the bases alone, when the file names them;
- a call on a name bound to a type the code spells (``c: Client``, ``const v = new View()``,
  ``s := &Store{}``, ``let p = Pool::new()``, ``s = Store.new``, C++'s ``VersionEdit* edit``) is a
  call on that type, its hint as a self call's: that type's method, else an attribute call; Go's
  type of an imported package (``cmd *cobra.Command``, ``c := &cobra.Command{}``) gives the
  package's path and the type (``go_packages.type_hint``): that type's method in that package, else
  nothing, and a type of the standard library's (``t *testing.T``, ``std::string s``) no reference
  at all; so is a call on a field of the method's own object its class declares with a type
  (``this.store.save()``, Go's ``s.db.Query()``, Java's ``store.save()``, C++'s ``store_->save()``
  in a class of the same file); in C++, a name no local or field of the file types, in a method of
  a class (``table_cache_->Evict()`` in ``DBImpl::Write``), or a member of a typed local
  (``impl->versions_``), carries ``FIELD_HINT``: resolution reads the type from the ``FIELDS``
  reference the class's other file (its header) wrote (``graph.fields``);
- a call on another receiver (``client.send()``, ``s.Run()``) names a method (``qualified``):
  the one of the same file when only it has that name, else up to
  ``graph.narrow.MAX_AMBIGUOUS`` homonyms, ``heuristic``; on another call's result
  (``Regex::builder().build()``), ``heuristic`` at best; none when the standard library gives
  the values code handles most a method of that name (Rust's ``.unwrap()``, ``args.push()``:
  ``tree_languages.STD_METHODS``);
- a call through a type (``Parser::new()``, ``Config.load()``, ``Foo::bar()``) names the type
  as its hint: it reaches that type's method, and nothing when the project has no such type
  (``String::new()``, ``Object.keys()``, ``Math.max()``);
- a call through a module the file imports (Rust's ``util::parse()``) names the function alone,
  ``heuristic`` at best, since these names carry no module here; JavaScript's through a module
  imported by path (``import * as util from './util'``, ``const util = require('./util')``) carries
  that path (``ALIAS_HINT``): that file's function; through the crate's own modules (Rust's
  ``super::parse()`` in a file's ``mod tests``, ``crate::flags::parse()``), as a plain call; Go's
  (``store.Open()``) carries the path the package is imported by, for the resolver to find that package's files
  (``go_packages``); through the standard library
  or a package from outside (``fmt.Println()``, ``std::cmp::max()``, ``require('fs')``'s
  ``fs.readFile()``) it is no reference at all, nor is a plain call of a name imported from
  outside (``import { map } from 'lodash'``).

From a test file (``test_files.is_test_path``) each call is also a ``tested_by`` reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from . import declared_calls, go_packages, laravel_routes, macro_tokens, rails_routes, ruby_names, rust_generics
from .elixir_source import STANDARD as ELIXIR_STANDARD
from .elixir_source import imported_modules
from .grammars import node_text
from .relations import BASES, FIELD_HINT, FIELDS, SELF_HINT, STANDARD_NAMESPACES, Ref, add_call, class_hint
from .rust_tests import within
from .test_files import is_test_path
from .tree_bindings import declared_fields, field_type, own_field, scope_at, typed_member, typed_names
from .tree_imports import ALIAS_HINT, imported_names
from .tree_languages import (
    BASES_ONLY,
    BUILTIN_CALLS,
    CAPITALISED_TYPES,
    CREATION,
    CSHARP_SYSTEM,
    IMPLICIT_SELF,
    JS_GLOBALS,
    LUA_GLOBALS,
    NAMES,
    OWN_CLASS,
    SELF,
    SELF_NAMES,
    STD_METHODS,
    SUPER_NAMES,
    TYPE_NAMES,
)
from .tree_queries import CALLS, query
from .tree_receivers import asserted, chained, created_type, field_of_field


def call_refs(
    root: Any,
    language: str,
    path: str,
    scopes: Sequence[tuple[int, int, str]],
    types: frozenset[str] = frozenset(),
    tests: Sequence[tuple[int, int]] = (),
) -> list[Ref]:
    """The ``calls`` references of a parsed file, in the order of the source, then a ``bases``
    reference for each class with bases; ``scopes``: (first byte, end byte, qualname) of its
    definitions, sorted; ``types``: the qualnames of those that are classes (structs, interfaces,
    Ruby's modules), whose methods' bare calls may be on their own object (not a namespace's);
    ``tests``: the byte spans of test code in a file that is not a test file (Rust's ``#[test]``
    functions, ``rust_tests``), whose calls are tests' too."""
    if language not in CALLS:
        return []
    from tree_sitter import QueryCursor

    modules, outside, project, renamed, scoped = imported_names(root, language, path)
    starts = [s[0] for s in scopes]
    calls, bound, assigned, selves, declared, extending, identifiers = [], [], [], {}, [], [], []
    generic: list[dict[str, list[Any]]] = []
    local: set[tuple[int | None, str]] = set()
    values: list[Any] = []
    handed: list[dict[str, list[Any]]] = []  # ``@value_package.@value_name`` handed over
    skipped: set[int] = set()  # Elixir's definition heads, written as calls
    spans: list[tuple[int, int]] = []  # and its module attributes, whose calls are none
    templates: list[Any] = []  # and its HEEx templates, whose function components are calls
    invokables: list[Any] = []  # Laravel's routes to an invokable controller (its class's name)
    resources: list[tuple[Any, str]] = []  # and its resource routes (the controller's name, the verb)
    named_actions: list[Any] = []  # and its routes to an action by name (the string)
    for _, captures in QueryCursor(query(language, "calls")).matches(root):
        if "skip" in captures:
            skipped.add(captures["skip"][0].start_byte)
        elif "skip_span" in captures:
            spans.append((captures["skip_span"][0].start_byte, captures["skip_span"][0].end_byte))
        elif "heex" in captures:
            templates.append(captures["heex"][0])
        elif "invokable" in captures:
            invokables.append(captures["invokable"][0])
        elif "resource" in captures:
            resources.append((captures["resource"][0], node_text(captures["resource_verb"][0])))
        elif "route_action" in captures:
            named_actions.append(captures["route_action"][0])
        elif "identifier" in captures:  # Ruby's
            identifiers.append(captures["identifier"][0])
        elif "base" in captures:
            extending.append(captures)
        elif "generic" in captures:  # Rust's ``<S: Sink>``, ``where S: Sink``
            generic.append(captures)
        elif "bound" in captures:
            bound.append(captures)
        elif "field" in captures:
            declared.append(captures)
        elif "assigned" in captures:
            assigned.append(captures["assigned"][0])
        elif "receiver" in captures:  # Go: by the method's first byte, its scope's
            selves[captures["receiver_method"][0].start_byte] = node_text(captures["receiver"][0])
        elif "local" in captures:  # JavaScript's: (the function it is bound in, its name)
            node = captures["local"][0]
            local.add((scope_at(scopes, starts, node.start_byte), node_text(node)))
        elif "value" in captures:
            values.append(captures["value"][0])
        elif "macro_call" in captures:  # Rust's call in a macro's tokens (``macro_tokens``)
            found = macro_tokens.as_call(captures["macro_call"][0])
            if found is not None:
                calls.append(found)
        elif "value_name" in captures:  # Go's ``security.RandomString``, JS's ``users.show`` handed over: as a call
            handed.append(captures)
        else:
            node = (captures.get("call") or captures["method"])[0]
            calls.append((node.start_byte, node, captures))
            if language == "ruby":  # ``before_action :require_user``: a call of ``require_user``
                symbols = ruby_names.callback_symbols(node)
                calls += [(symbol.start_byte, symbol, {"call": [symbol]}) for symbol in symbols]
    for node in ruby_names.bare_calls(identifiers, lambda at: scope_at(scopes, starts, at)) if identifiers else ():
        calls.append((node.start_byte, node, {"call": [node]}))  # ``convert`` alone: as ``convert()``
    if values:  # a function of the file's, or one imported from the project, handed over: as its call
        functions = {qualname for _, _, qualname in scopes if "." not in qualname} | project
        members = {qualname for _, _, qualname in scopes} if language == "csharp" else set()
        for node in values:
            name, inner = node_text(node), scope_at(scopes, starts, node.start_byte)
            if language == "csharp":  # a method group: a method of the type around it, called bare
                owner = scopes[inner][2].rpartition(".")[0] if inner is not None else ""
                if owner and f"{owner}.{name}" in members:
                    calls.append((node.start_byte, node, {"call": [node]}))
            elif name in functions and (inner, name) not in local:
                calls.append((node.start_byte, node, {"call": [node]}))
    typed = typed_names(language, bound, assigned, scopes, starts)
    for captures in handed:  # a module's function, or a method of a value of a type the code says (gin's
        node, holder = captures["value_name"][0], captures["value_package"][0]  # ``r.GET("/x", h.List)``)
        at = scope_at(scopes, starts, holder.start_byte)
        if node_text(holder) in modules or (at, node_text(holder)) in typed:
            calls.append((node.start_byte, node, {"method": [node], "recv": [holder]}))
    fields = declared_fields(declared, scopes, starts)
    bases = _bases(extending, scopes, starts, outside)
    if language == "elixir":  # a module's ``import``s: their functions called bare as its own
        bases.update(imported_modules(root, modules))
    generics = rust_generics.bounds(generic, lambda at: scope_at(scopes, starts, at))
    testing = is_test_path(path)
    builtin = BUILTIN_CALLS.get(language, frozenset())
    defined = {qualname for _, _, qualname in scopes}
    refs: list[Ref] = []
    seen: dict[tuple[str | None, str, str | None, bool], int] = {}  # -> its reference's index
    # Phoenix's and Rails' routes, each a call of its controller's action (``get "/", …``: no call of ``get``)
    declared_routes = declared_calls.routes(root, language, path)
    skipped.update(route.start_byte for route, _, _ in declared_routes)
    if language == "ruby" and rails_routes.is_routes_file(path):  # its calls are the routing DSL's
        calls = []
    if skipped or spans:
        spans.sort()
        calls = [call for call in calls if call[0] not in skipped and not within(spans, call[0])]
    calls.sort(key=lambda item: item[0])
    for _, node, captures in calls:
        name = local_name = node_text(node).removeprefix(":")  # a Ruby callback's symbol: its method
        if renamed and "call" in captures:
            name = renamed.get(name, name)  # imported as another name: the one it has
        hint, qualified, link = None, "method" in captures, "extracted"
        if not qualified and (name in outside or name in builtin):
            continue  # a name imported from outside the project, or the language's own
        receivers = captures.get("recv") or captures.get("path")
        receiver = asserted(receivers[0]) if receivers else None
        spelled = node_text(receiver) if receiver is not None else ""
        line = node.start_point[0] + 1
        at = scope_at(scopes, starts, node.start_byte)
        if at is not None and not qualified and (at, name) in local:
            continue  # a value the function holds (``const { error } = parse(); error()``): no symbol
        scope = scopes[at][2] if at is not None else None
        # the class of a method, or the class whose body holds the call (Ruby's ``validates``,
        # Java's field initialiser): the object it is made on
        owner = scope if scope in types else scope.rpartition(".")[0] if scope else ""
        # the object's own name when the grammar spells it as a name: PHP's ``$this``, Scala's ``this``,
        # Go's receiver (``s`` in ``func (s *Server) Run()``)
        self_var = SELF_NAMES.get(language) or (selves.get(scopes[at][0]) if at is not None else None)
        field = (owner, own_field(receiver, language, self_var) or "") if receiver is not None else None
        # each hint below names a type: that type's method, else an attribute call
        if receiver is None:  # in Java, Ruby and C++ a method's bare call may be one on its own object
            # ``new K()`` (``CREATION``): the class's constructor, no call on the object
            creation = node.parent is not None and node.parent.type in CREATION
            # a Java method imported by name (``import static …Checks.named``) unless the class declares its own
            imported = local_name in scoped and f"{owner}.{name}" not in defined
            if owner in types and language in IMPLICIT_SELF and not creation and not imported:
                hint = class_hint(owner, bases)
        elif (
            receiver.type in SELF
            or spelled == self_var
            or spelled in OWN_CLASS
            and receiver.type == "relative_scope"
            or language == "ruby"
            and spelled in _RUBY_SELF_COPIES
        ):
            hint = class_hint(owner, bases) if owner else None
        elif (
            receiver.type in BASES_ONLY or receiver.type == "relative_scope" or spelled == SUPER_NAMES.get(language)
        ) and bases.get(owner):
            hint = SELF_HINT + " ".join(f".{base}" for base in bases[owner][1])  # the bases' alone
        elif receiver.type == "relative_scope":
            continue  # PHP's ``parent::save()`` in a class whose bases the file does not name
        elif (made := created_type(receiver, language)) is not None:  # ``(new Streamer())->stream()``
            hint = class_hint(made, bases)
        elif receiver.type in NAMES and (at, spelled) in typed:
            package, _, type_ = typed[at, spelled].rpartition(".")
            type_ = rust_generics.bound_of(generics, type_, scopes, at, node.start_byte)
            if package in outside or language == "cpp" and package in STANDARD_NAMESPACES:
                continue  # a method of a type of the standard library's (``t *testing.T``, ``std::string s``)
            if package in modules:  # Go: of a type an imported package declares (``cmd *cobra.Command``)
                hint = go_packages.type_hint(modules[package], type_)
            elif not package or language == "cpp":  # C++'s ``port::Mutex mu``: by the type's name
                hint = class_hint(type_, bases)
        elif (declared_type := field_type(fields, field, types, language)) is not None:
            package, _, type_ = declared_type.rpartition(".")
            type_ = rust_generics.bound_of(generics, type_, scopes, at, node.start_byte)
            if package in STANDARD_NAMESPACES:
                continue  # C++'s ``std::string name_;``
            hint = class_hint(type_, bases)
        elif language == "cpp" and field is not None and field[1] and owner in types:
            # a member the class may declare in another file (``DBImpl::Write`` in ``db_impl.cc``, the
            # class in ``db_impl.h``): that file's ``FIELDS`` reference tells (``graph.fields``)
            hint = f"{FIELD_HINT}{owner} {field[1]}"
        elif language == "cpp" and (typed_field := typed_member(receiver, at, typed)) is not None:
            hint = FIELD_HINT + typed_field  # ``impl->versions_->LogAndApply()``, ``DBImpl* impl``
        else:
            shape, named = _receiver(language, receiver, spelled, modules, outside, path="path" in captures)
            if shape == "value" and receiver.type in NAMES and f"{spelled}.{name}" in defined:
                shape = "object"  # an object of the file's holding the method (``utils.forEach()``)
            if shape == "outside" or shape == "value" and name in STD_METHODS.get(language, ()):
                continue  # (``args.push()``, ``.unwrap()`` on a value of a type unsaid: the standard library's)
            if shape == "module" and language == "go":  # a function of the package imported (``go_packages``)
                qualified, hint = False, go_packages.IMPORT_HINT + modules[spelled]
            elif shape == "module" and modules.get(spelled):  # ``import * as users from './users'``: that file's
                qualified, hint = False, ALIAS_HINT + modules[spelled]
            elif shape == "module":
                qualified, link = False, "heuristic"
            elif shape == "own":  # Rust's ``super::parse()``, ``crate::flags::parse()``: the crate's, as a plain call
                qualified = False
            elif shape == "type":  # Rust's ``Self::new()``: the type of the ``impl`` around it
                hint = (owner or None) if named == "Self" else named
            elif shape == "object":
                hint = spelled
            elif chained(receiver) or field_of_field(receiver):  # ``Regex::builder().build()``,
                link = "heuristic"  # ``self.config.colors.matched()``: a type the call does not say
        if receiver is None and hint is None and local_name in scoped and "call" in captures:
            hint = ALIAS_HINT + scoped[local_name]  # the project's if one of its files ends so
        key = (scope, name, hint, qualified)
        tested = testing or bool(tests) and within(tests, node.start_byte)
        add_call(refs, seen, key, Ref("calls", "symbol", name, line, scope, hint, qualified, False, link, tested))
    declared_routes += [(node, "__invoke", node_text(node)) for node in invokables]
    declared_routes += laravel_routes.resources(resources)
    declared_routes += laravel_routes.named_actions(named_actions)
    framework = declared_calls.refs(templates, declared_routes, scopes, starts, types, bases, modules, testing)
    if language == "csharp":  # MediatR's handlers of the requests sent
        framework = chain(framework, declared_calls.mediatr(calls, typed, scopes, starts, testing))
    for key, ref in framework:
        add_call(refs, seen, key, ref)
    # as Python's: the class by its short name, its classes as hint; Rust's, one per ``impl`` block
    # (``graph.bases`` reads a type's blocks as one), each at its own line
    blocks = _impl_blocks(extending, bases) if language == "rust" else [(c, *entry) for c, entry in bases.items()]
    for cls, line, names in blocks:
        refs.append(Ref(BASES, BASES, cls.rpartition(".")[2], line, cls, " ".join([f".{cls}", *names])))
    if language == "cpp":
        refs += _field_refs(fields)
    return refs


def _field_refs(fields: dict[tuple[str, str], str]) -> list[Ref]:
    """A ``FIELDS`` reference for each class with typed fields: its short name, and as hint the
    class then ``field=Type`` for each (``leveldb.DBImpl table_cache_=TableCache``)."""
    by_class: dict[str, list[str]] = {}
    for (cls, name), type_ in fields.items():
        by_class.setdefault(cls, []).append(f"{name}={type_}")
    return [
        Ref(FIELDS, FIELDS, cls.rpartition(".")[2], None, cls, " ".join([cls, *entries]))
        for cls, entries in by_class.items()
    ]


def _bases(
    extending: list[dict[str, list[Any]]], scopes: Sequence[tuple[int, int, str]], starts: list[int], outside: set[str]
) -> dict[str, tuple[int, list[str]]]:
    """class qualname -> (the line of its name, the bases it names, in order; ``BASES``'s
    matches); a base imported from outside the project (``extends Component`` from React) is
    left out: a method it lacks is no project's class's."""
    found: dict[str, tuple[int, list[str]]] = {}
    for captures in extending:
        node = captures["base_class"][0]
        at = scope_at(scopes, starts, node.start_byte)
        base = node_text(captures["base"][0])
        if "::" in base:  # Ruby's ``Sinatra::Base``: by its dotted name, as its class's qualname is written
            base = base.lstrip(":").replace("::", ".")
        including = captures.get("base_include")  # Ruby: ``include``, not ``extend`` (class methods)
        if at is None or base in outside or including and node_text(including[0]) != "include":
            continue
        cls = scopes[at][2]
        if cls.rpartition(".")[2] != node_text(node):
            continue  # a class that is no definition of the file's (one in a function)
        names = found.setdefault(cls, (node.start_point[0] + 1, []))[1]
        if base not in names and base != cls.rpartition(".")[2]:
            names.append(base)
    return {cls: entry for cls, entry in found.items() if entry[1]}


def _impl_blocks(
    extending: list[dict[str, list[Any]]], bases: dict[str, tuple[int, list[str]]]
) -> list[tuple[str, int, list[str]]]:
    """Rust: (type, line, traits) of each ``impl Trait for Type`` block of the types ``bases``
    keeps (by the type's short name), in the order written."""
    short = {cls.rpartition(".")[2]: cls for cls in bases}
    blocks: dict[tuple[str, int], list[str]] = {}
    for captures in extending:
        node = captures["base_class"][0]
        cls = short.get(node_text(node))
        base = node_text(captures["base"][0])
        if cls is not None and base in bases[cls][1]:
            names = blocks.setdefault((cls, node.start_point[0] + 1), [])
            if base not in names:
                names.append(base)
    return [(cls, line, names) for (cls, line), names in blocks.items()]


# Ruby's copies of the object a method runs on (``dup.call!(env)``: sinatra's ``Base.call``).
_RUBY_SELF_COPIES = frozenset({"dup", "clone", "itself"})
# The paths that name a Rust crate's own modules (``super::parse()``, ``crate::flags::parse()``).
_OWN_MODULES = frozenset({"crate", "super"})


def _receiver(
    language: str, node: Any, spelled: str, modules: dict[str, str], outside: set[str], *, path: bool
) -> tuple[str, str]:
    """What a call's receiver is, and the hint it gives: ``type`` (a class or type by its name:
    the hint), ``module`` (a module of the project), ``own`` (Rust's ``super::``, ``crate::``: a module
    of the crate), ``outside`` (the runtime's, the standard library's, an outside package's), or
    ``value`` (anything else: an attribute call). ``path``: the receiver is a path before ``::``
    (Rust, C++)."""
    if spelled in outside:
        return "outside", ""
    if node.type == "identifier" and spelled in modules:
        return "module", ""
    if path:  # a type (``Parser::new``), else a module or namespace
        first = spelled.split("::", 1)[0]  # ``io::Error`` after ``use std::io``: the standard library's
        if first in STANDARD_NAMESPACES or first in outside or spelled.startswith("::"):
            return "outside", ""
        if language == "rust" and first in _OWN_MODULES and not spelled.rsplit("::", 1)[-1][:1].isupper():
            return "own", ""
        last = spelled.rsplit("::", 1)[-1]
        return ("type", last) if last[:1].isupper() else ("module", "")
    if language in ("javascript", "typescript", "tsx") and node.type == "identifier" and spelled in JS_GLOBALS:
        return "outside", ""
    if language == "csharp" and spelled in CSHARP_SYSTEM:
        return "outside", ""
    if language == "lua" and spelled.split(".", 1)[0].split(":", 1)[0] in LUA_GLOBALS:
        return "outside", ""
    if language == "elixir" and node.type in ("alias", "atom"):  # ``Repo.get!()``; Erlang's ``:ets.insert()``
        first, dot, rest = spelled.partition(".")
        if node.type == "atom" or first in ELIXIR_STANDARD:
            return "outside", ""
        return "type", modules.get(first, first) + dot + rest  # the module an ``alias`` names, in full
    if language in CAPITALISED_TYPES and node.type in TYPE_NAMES and spelled[:1].isupper():
        return "type", spelled
    if language == "ruby" and node.type == "scope_resolution":  # ``Asciidoctor::Section``, ``::AsciiMath``
        name = node.child_by_field_name("name")
        return ("type", node_text(name)) if name is not None and name.type == "constant" else ("value", "")
    return "value", ""
