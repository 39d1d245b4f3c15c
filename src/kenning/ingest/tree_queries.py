"""The tree-sitter queries ``tree_calls`` reads code with, one set per language: the call sites,
the names bound to a spelled type, the assignments and the typed fields (``tree_types``), the
classes' bases, JavaScript's locals, the functions handed over as values and Go's receivers (one
query, one walk of the tree), and the imports (run on the top-level statements)."""

from __future__ import annotations

from functools import cache
from typing import Any

from . import rust_generics
from .grammars import grammar
from .tree_types import ASSIGNED, FIELDS, TYPED

_JS = """
(call_expression function: (identifier) @call)
(call_expression function: (member_expression object: (_) @recv property: (property_identifier) @method))
(new_expression constructor: (identifier) @call)
"""
_C = """
(call_expression function: (identifier) @call)
(call_expression function: (field_expression argument: (_) @recv field: (field_identifier) @method))
"""
CALLS = {
    "javascript": _JS,
    "typescript": _JS,
    "tsx": _JS,
    "go": """
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression operand: (_) @recv field: (field_identifier) @method))
""",
    # Rust: also a call written in a macro's arguments (``assert_eq!(parse(x), 1)``), which the
    # grammar keeps as tokens: a name followed by a parenthesised token tree (``tree_calls``)
    "rust": """
(call_expression function: (identifier) @call)
(call_expression function: (field_expression value: (_) @recv field: (field_identifier) @method))
(call_expression function: (scoped_identifier path: (_) @path name: (identifier) @method))
((token_tree (identifier) @macro_call . (token_tree) @macro_args) (#match? @macro_args "^[(]"))
""",
    # Java: also a method reference (``this::save``, ``Foo::bar``), which hands the method to its caller
    "java": """
(method_invocation !object name: (identifier) @call)
(method_invocation object: (_) @recv name: (identifier) @method)
(object_creation_expression type: (type_identifier) @call)
(method_reference . (_) @recv . (identifier) @method)
""",
    "c": _C,
    "cpp": _C
    + "(call_expression function: (qualified_identifier scope: (_) @path name: (identifier) @method))"
    + "(new_expression type: (type_identifier) @call)",
    # PHP: ``f()``, ``new Store()``, ``$x->m()`` (``?->`` too), ``Store::m()`` and ``self::m()`` (a
    # qualified ``\App\f()`` or ``\App\Store::m()`` names no symbol of the file's kind: none), and a
    # callable array as the call it stands for (``[LoginController::class, 'login']``: Laravel's route to
    # an action; ``[$this, 'handle']``), Laravel's route to an invokable controller (``@invokable``:
    # ``Route::put('users/{u}/block', BlockUserController::class)`` calls its ``__invoke``) and its
    # resource routes (``@resource``: ``Route::resource('photos', PhotoController::class)``, its actions),
    # and a route to an action by its name (``@route_action``: ``Route::get('x', 'show')`` in a
    # ``Route::controller(X::class)->group(…)``, or ``'UserController@show'``)
    "php": """
(function_call_expression function: (name) @call)
(object_creation_expression (name) @call)
(member_call_expression object: (_) @recv name: (name) @method)
(nullsafe_member_call_expression object: (_) @recv name: (name) @method)
(scoped_call_expression scope: [(name) (relative_scope)] @path name: (name) @method)
(array_creation_expression . (array_element_initializer (class_constant_access_expression . (name) @path
  . (name) @_class)) . (array_element_initializer (string (string_content) @method)) . (#eq? @_class "class"))
(array_creation_expression . (array_element_initializer (variable_name) @recv)
  . (array_element_initializer (string (string_content) @method)) . (#eq? @recv "$this"))
(scoped_call_expression scope: (name) @_route name: (name) @_verb arguments: (arguments . (argument) .
  (argument (class_constant_access_expression . (name) @invokable . (name) @_class)))
  (#eq? @_route "Route") (#eq? @_class "class")
  (#any-of? @_verb "get" "post" "put" "patch" "delete" "options" "any" "match"))
(scoped_call_expression scope: (name) @_resources name: (name) @resource_verb arguments: (arguments . (argument) .
  (argument (class_constant_access_expression . (name) @resource . (name) @_resource_class)))
  (#eq? @_resources "Route") (#eq? @_resource_class "class") (#any-of? @resource_verb "resource" "apiResource"))
(scoped_call_expression scope: (name) @_action_route name: (name) @_action_verb arguments: (arguments . (argument) .
  (argument [(string) (encapsed_string)] @route_action)) (#eq? @_action_route "Route")
  (#any-of? @_action_verb "get" "post" "put" "patch" "delete" "options" "any" "match"))
""",
    # C#: ``F()``, ``F<T>()``, ``new Store()``, ``x.M()`` (``this``/``base`` too: ``_``), ``x?.M()``
    "csharp": """
(invocation_expression function: (identifier) @call)
(invocation_expression function: (generic_name (identifier) @call))
(object_creation_expression type: (identifier) @call)
(invocation_expression function: (member_access_expression expression: _ @recv name: (identifier) @method))
(invocation_expression
  function: (member_access_expression expression: _ @recv name: (generic_name (identifier) @method)))
(invocation_expression
  function: (conditional_access_expression condition: (_) @recv (member_binding_expression name: (identifier) @method)))
""",
    # Kotlin: ``f()``, ``Store()`` (a constructor is called as a function), ``x.m()`` (``this.``, ``super.``),
    # and a callable reference, ``viewModel::update`` and ``::top`` (Compose wires its actions so), not ``Foo::class``
    "kotlin": """
(call_expression . (identifier) @call)
(call_expression . (navigation_expression (_) @recv (identifier) @method .))
(navigation_expression (_) @recv "::" (identifier) @method (#not-eq? @method "class"))
(callable_reference . (identifier) @call)
""",
    # Swift: ``f()``, ``Store()``, ``x.m()`` (``self.``, ``super.``, ``x?.m()``)
    "swift": """
(call_expression . (simple_identifier) @call)
(call_expression
  . (navigation_expression target: (_) @recv suffix: (navigation_suffix suffix: (simple_identifier) @method)))
""",
    # Scala: ``f()``, ``new Store()``, ``x.m()`` and ``x.m`` (a method without parentheses is called all
    # the same: ``opt.shortDescription``, ``OptionDef.makeSuccess[String]``; ``this.`` and ``super.`` are
    # identifiers to the grammar), and a method written infix, ``x validate (f)`` (not ``a + b``)
    "scala": """
(call_expression function: (identifier) @call)
(field_expression value: (_) @recv field: (identifier) @method)
(instance_expression . (type_identifier) @call)
(infix_expression left: (_) @recv operator: (identifier) @method)
""",
    # Lua: ``f()``, ``M.setup()``, ``M:refresh()`` (``self:refresh()``: the table's own)
    "lua": """
(function_call name: (identifier) @call)
(function_call name: (dot_index_expression table: (_) @recv field: (identifier) @method))
(function_call name: (method_index_expression table: (_) @recv method: (identifier) @method))
""",
    # Elixir: ``f(x)``, ``x |> f()``, ``Repo.get!(User, id)``, a function captured (``&format/1``,
    # ``&Repo.all/1``), not a map's field (``user.email``: no parentheses); ``@skip``: a definition's head,
    # written as a call (``def get_user!(id)``, ``def f(x) when …``); ``@skip_span``: a module attribute,
    # whose calls are none (``@doc "…"``, ``@timeout 5000``, a typespec: ``@spec get(id) :: User.t()``);
    # ``@heex``: a HEEx template (``~H"""…"""``), whose function components are calls (``elixir_source``)
    "elixir": """
(call target: (identifier) @call)
(call target: (dot left: (_) @recv right: (identifier) @method) (arguments))
(unary_operator operator: "&" operand: (binary_operator left: (identifier) @call))
(unary_operator operator: "&" operand: (binary_operator left: (call target: (dot left: (_) @recv
  right: (identifier) @method))))
(call target: (identifier) @_def (arguments . [(call target: (identifier) @skip)
  (binary_operator left: (call target: (identifier) @skip))])
  (#any-of? @_def "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp"))
(unary_operator operator: "@") @skip_span
(sigil (sigil_name) @_sigil (quoted_content) @heex (#eq? @_sigil "H"))
""",
    # Ruby: every identifier too, each a call unless a local (``ruby_names``: ``convert`` alone)
    "ruby": """
(call !receiver method: (identifier) @call)
(call receiver: (_) @recv method: (identifier) @method)
(identifier) @identifier
""",
}
IMPORTS = {  # what names a file binds to modules: captures @alias, @source, @name (a named import; @original:
    # the name it imports as another, ``import { POST as send }``)
    "javascript": """
(import_statement (import_clause (namespace_import (identifier) @alias)) source: (string) @source)
(import_statement (import_clause (identifier) @name) source: (string) @source)
(import_statement (import_clause (named_imports (import_specifier name: (_) @name !alias))) source: (string) @source)
(import_statement (import_clause (named_imports (import_specifier name: (_) @original alias: (_) @name)))
  source: (string) @source)
(variable_declarator name: (identifier) @alias
  value: (call_expression function: (identifier) @require arguments: (arguments (string) @source)))
""",
    "go": "(import_spec name: (_)? @alias path: (_) @source)",
    "lua": """
(variable_declaration (assignment_statement (variable_list name: (identifier) @alias)
  (expression_list value: (function_call name: (identifier) @require
    arguments: (arguments (string content: (string_content) @source))))))
""",
}
# The classes a class extends, the types a Go struct embeds, the modules a Ruby class includes
# (``@base`` of the class ``@base_class``; ``@base_include``: the call that includes it):
# a self call its own class does not answer reaches its bases' method (``graph.bases``). By their
# names (``extends Base``, ``*Base``; Ruby's ``Foo::Base`` and C++'s ``ns::Base`` by their last; not
# ``extends mixin(B)``, Go's ``pkg.Type``).
_TS_TYPE = "[(type_identifier) @base (generic_type (type_identifier) @base)]"
# TypeScript: also the interfaces a class implements and an interface extends (``implements Api``,
# ``interface Store extends Reader<T>``)
_TS_BASES = f"""
(class_declaration name: (type_identifier) @base_class (class_heritage (extends_clause value: (identifier) @base)))
(abstract_class_declaration name: (type_identifier) @base_class
  (class_heritage (extends_clause value: (identifier) @base)))
(class_declaration name: (type_identifier) @base_class (class_heritage (implements_clause {_TS_TYPE})))
(abstract_class_declaration name: (type_identifier) @base_class (class_heritage (implements_clause {_TS_TYPE})))
(interface_declaration name: (type_identifier) @base_class (extends_type_clause {_TS_TYPE}))
"""
_CPP_BASE = (
    "[(type_identifier) @base (template_type name: (type_identifier) @base)"
    " (qualified_identifier name: [(type_identifier) @base (qualified_identifier name: (type_identifier) @base)])]"
)
# (a nested type by its last name: ``implements JsonAdapter.Factory`` is ``Factory``)
_JAVA_TYPE = (
    "[(type_identifier) @base (generic_type (type_identifier) @base)"
    " (scoped_type_identifier (type_identifier) @base .)"
    " (generic_type (scoped_type_identifier (type_identifier) @base .))]"
)
# a base by its whole name (``Sinatra::Base``, not ``Base``: ``Rack::Protection::Base`` is another)
_RUBY_CONSTANT = "[(constant) @base (scope_resolution name: (constant)) @base]"
_RUBY_NAME = "[(constant) @base_class (scope_resolution name: (constant) @base_class)]"
_RUBY_INCLUDE = f"(call !receiver method: (identifier) @base_include arguments: (argument_list . {_RUBY_CONSTANT}))"
_PHP_NAME = "[(name) @base (qualified_name (name) @base)]"
_RUST_TYPE = (
    "[(type_identifier) @{capture} (generic_type type: (type_identifier) @{capture})"
    " (scoped_type_identifier name: (type_identifier) @{capture})"
    " (generic_type type: (scoped_type_identifier name: (type_identifier) @{capture}))]"
)
_KOTLIN_LAST = "[(user_type (identifier) @base .) (user_type (identifier) @base . (type_arguments) .)]"
_CSHARP_TYPE = "[(identifier) @base (generic_name (identifier) @base) (qualified_name name: (identifier) @base)]"
BASES = {
    "javascript": "(class_declaration name: (identifier) @base_class (class_heritage (identifier) @base))",
    "typescript": _TS_BASES,
    "tsx": _TS_BASES,
    # Java: the superclass, then the interfaces (their default methods), an interface's own too
    "java": f"""
(class_declaration name: (identifier) @base_class superclass: (superclass {_JAVA_TYPE}))
(class_declaration name: (identifier) @base_class interfaces: (super_interfaces (type_list {_JAVA_TYPE})))
(interface_declaration name: (identifier) @base_class (extends_interfaces (type_list {_JAVA_TYPE})))
""",
    # Ruby: a superclass, and a module a class or module includes in its body (``include Logging``)
    # (``class Table::Cell < AbstractBlock`` is the class ``Cell``, as the parser names it ``Table.Cell``)
    "ruby": f"""
(class name: {_RUBY_NAME} superclass: (superclass {_RUBY_CONSTANT}))
(class name: {_RUBY_NAME} body: (body_statement {_RUBY_INCLUDE}))
(module name: {_RUBY_NAME} body: (body_statement {_RUBY_INCLUDE}))
""",
    # PHP: ``extends Base``, ``implements Api``, a trait the class uses (``use HasRoles;``), by their last names
    "php": f"""
(class_declaration name: (name) @base_class (base_clause {_PHP_NAME}))
(class_declaration name: (name) @base_class (class_interface_clause {_PHP_NAME}))
(class_declaration name: (name) @base_class body: (declaration_list (use_declaration {_PHP_NAME})))
(interface_declaration name: (name) @base_class (base_clause {_PHP_NAME}))
""",
    # Kotlin: the superclass (``: Base()``) and the interfaces, one list
    # (a nested type by its last name: ``JsonAdapter.Factory`` is ``Factory``, not ``JsonAdapter`` too)
    "kotlin": f"""
(class_declaration name: (identifier) @base_class
  (delegation_specifiers (delegation_specifier (constructor_invocation {_KOTLIN_LAST}))))
(class_declaration name: (identifier) @base_class
  (delegation_specifiers (delegation_specifier {_KOTLIN_LAST})))
""",
    # Swift: the superclass and the protocols, one list (``: BaseStore, Loading``)
    "swift": """
(class_declaration name: (type_identifier) @base_class
  (inheritance_specifier inherits_from: [(user_type (type_identifier) @base .)
                                         (user_type (type_identifier) @base . (type_arguments) .)]))
""",
    # Scala: what a class, an object or a trait extends and mixes in (``extends Base with Loading``)
    "scala": "".join(
        f"({kind} name: (identifier) @base_class extend: (extends_clause "  # no ``type:``: it names only the first
        "[(type_identifier) @base (generic_type type: (type_identifier) @base)]))"
        for kind in ("class_definition", "object_definition", "trait_definition")
    ),
    # C#: the base class and the interfaces, one list (``: Base<T>, Api``), by their last names
    "csharp": "".join(
        f"({kind} name: (identifier) @base_class (base_list {_CSHARP_TYPE}))"
        for kind in ("class_declaration", "struct_declaration", "record_declaration", "interface_declaration")
    ),
    # C++: a base by its name, its template's (``Base<T>``) or its last (``ns::Base``)
    "cpp": f"""
(class_specifier name: (type_identifier) @base_class (base_class_clause {_CPP_BASE}))
(struct_specifier name: (type_identifier) @base_class (base_class_clause {_CPP_BASE}))
""",
    # Rust: the trait an ``impl`` block implements for a type (``impl Sink for Standard<W>``,
    # ``impl fmt::Display for Error``), by their last names: its type's bases, one line per block; and a
    # trait's supertraits (``trait Printer: Sink``)
    "rust": f"""
(impl_item trait: {_RUST_TYPE.format(capture="base")} type: {_RUST_TYPE.format(capture="base_class")})
(trait_item name: (type_identifier) @base_class bounds: (trait_bounds {_RUST_TYPE.format(capture="base")}))
""",
    "go": """
(type_spec name: (type_identifier) @base_class
  type: (struct_type (field_declaration_list
    (field_declaration !name type: [(type_identifier) @base (pointer_type (type_identifier) @base)]))))
""",
}
# A Go method's receiver (``func (s *Server) Run()``): calls on ``s`` in it are self calls.
GO_RECEIVER = """
(method_declaration receiver: (parameter_list (parameter_declaration name: (identifier) @receiver))) @receiver_method
"""
IMPORTS["typescript"] = IMPORTS["tsx"] = IMPORTS["javascript"]
# JavaScript's and TypeScript's names bound in a function (``@local``): a declared constant or
# variable, a destructured one (``const { get, error } = useApi()``), a parameter, a caught error,
# a function declared in its body (outline's ``function replace(node)`` in ``replaceTemplateVariables``
# was linked ``extracted`` to ``rfc6902/patch.ts``'s ``replace``).
# A bare call of one inside that function calls the value it holds, never the project's function of
# that name in another file (``tree_calls``).
_JS_LOCALS = """
(variable_declarator name: (identifier) @local)
(object_pattern (shorthand_property_identifier_pattern) @local)
(object_pattern (pair_pattern value: (identifier) @local))
(array_pattern (identifier) @local)
(arrow_function parameter: (identifier) @local)
(catch_clause parameter: (identifier) @local)
(statement_block (function_declaration name: (identifier) @local))
"""
LOCALS = {
    "javascript": _JS_LOCALS + "(formal_parameters (identifier) @local)",
    "typescript": _JS_LOCALS + "(required_parameter pattern: (identifier) @local)"
    "(optional_parameter pattern: (identifier) @local)",
}
LOCALS["tsx"] = LOCALS["typescript"]
# A function handed over as a value (``@value``): a handler registered by name (pocketbase's
# ``sub.GET("", realtimeConnect)``, Express's ``app.get('/', list)``, a callback ``items.map(format)``,
# React's ``onClick={save}``), and a module's function, Go's ``security.RandomString`` (``@value_package``,
# ``@value_name``) and JavaScript's ``users.show``; C#'s method group, a method of the type around it.
# ``tree_calls`` keeps those naming a function of the file or one imported from the project.
# A React component rendered (``<MetricCard … />``, ``<Table.Row>``) is a call of it; ``<div>`` is a tag.
_JSX = """
(jsx_expression (identifier) @value)
(jsx_opening_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_opening_element name: (member_expression object: (identifier) @recv property: (property_identifier) @method))
(jsx_self_closing_element name: (member_expression object: (identifier) @recv property: (property_identifier) @method))
"""
# A module's function handed over (Express's ``router.get('/users/:id', users.show)``, ``users`` a module
# the file imports): as Go's.
_JS_MODULE_VALUE = (
    "(arguments (member_expression object: (identifier) @value_package property: (property_identifier) @value_name))"
)
VALUES = {
    "javascript": "(arguments (identifier) @value)" + _JS_MODULE_VALUE + _JSX,
    "typescript": "(arguments (identifier) @value)" + _JS_MODULE_VALUE,
    "tsx": "(arguments (identifier) @value)" + _JS_MODULE_VALUE + _JSX,
    "go": """
(argument_list (identifier) @value)
(argument_list (selector_expression operand: (identifier) @value_package field: (field_identifier) @value_name))
""",
    # C#'s method group (``groupBuilder.MapPost(CreateTodoItem)``: a minimal API's endpoint, a delegate):
    # a method of the type around it
    "csharp": "(argument_list (argument (identifier) @value))",
}


@cache
def query(language: str, which: str) -> Any:
    """``calls``: the call sites, with the typed bindings, the assignments, the bases, JavaScript's
    locals and Go's receivers, in one query (one walk of the tree: each query walks it all); ``imports``: what the
    file binds to modules (run on its top-level statements)."""
    from tree_sitter import Query

    if which == "imports":
        return Query(grammar(language), IMPORTS[language])
    parts = (CALLS, TYPED, ASSIGNED, FIELDS, BASES, LOCALS, VALUES, {"go": GO_RECEIVER, "rust": rust_generics.QUERY})
    return Query(grammar(language), "".join(part.get(language, "") for part in parts))
