"""The tree-sitter queries ``tree_calls`` reads code with, one set per language: the call sites,
the names bound to a spelled type, the assignments, the typed fields, the classes' bases and Go's
receivers (one query, one walk of the tree), and the imports (run on the top-level statements)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .grammars import grammar

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
    "rust": """
(call_expression function: (identifier) @call)
(call_expression function: (field_expression value: (_) @recv field: (field_identifier) @method))
(call_expression function: (scoped_identifier path: (_) @path name: (identifier) @method))
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
    # qualified ``\App\f()`` or ``\App\Store::m()`` names no symbol of the file's kind: none)
    "php": """
(function_call_expression function: (name) @call)
(object_creation_expression (name) @call)
(member_call_expression object: (_) @recv name: (name) @method)
(nullsafe_member_call_expression object: (_) @recv name: (name) @method)
(scoped_call_expression scope: [(name) (relative_scope)] @path name: (name) @method)
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
}
# Go's types of an imported package (``cmd *cobra.Command``, ``c := &cobra.Command{}``): ``@bound_package``.
_GO_QUALIFIED = "(qualified_type package: (package_identifier) @bound_package name: (type_identifier) @bound_type)"
_GO_QUALIFIED_TYPED = f"""
(parameter_declaration name: (identifier) @bound type: [{_GO_QUALIFIED} (pointer_type {_GO_QUALIFIED})])
(short_var_declaration left: (expression_list . (identifier) @bound)
  right: (expression_list . [(composite_literal type: {_GO_QUALIFIED})
                             (unary_expression operand: (composite_literal type: {_GO_QUALIFIED}))]))
(var_spec name: (identifier) @bound type: [{_GO_QUALIFIED} (pointer_type {_GO_QUALIFIED})])
(var_spec name: (identifier) @bound value: (expression_list . (composite_literal type: {_GO_QUALIFIED})))
"""
# Names bound to a value of a type the code spells (``@bound`` of ``@bound_type``): a call on one is
# a call on that type, as on Python's typed locals (``const view = new View()``, ``s := &Store{}``,
# ``Store s = new Store()``, ``fn f(c: &Client)``, ``s = Store.new``).
_TS_TYPED = """
(required_parameter pattern: (identifier) @bound type: (type_annotation (type_identifier) @bound_type))
(optional_parameter pattern: (identifier) @bound type: (type_annotation (type_identifier) @bound_type))
(variable_declarator name: (identifier) @bound type: (type_annotation (type_identifier) @bound_type))
"""
_JS_TYPED = (
    "(variable_declarator name: (identifier) @bound value: (new_expression constructor: (identifier) @bound_type))"
)
_CPP_NAME = (
    "[(identifier) @bound (pointer_declarator declarator: (identifier) @bound)"
    " (reference_declarator (identifier) @bound)]"
)


def _cpp_type(capture: str) -> str:
    """A C++ type by its name (``@<capture>_type``) and its namespace's (``@<capture>_package``:
    ``std::string``, ``port::Mutex``), a template's by its own (``std::vector<int>``)."""
    names = f"(type_identifier) @{capture}_type (template_type name: (type_identifier) @{capture}_type)"
    # one flat alternation: a nested one (``[[a b] c]``) matched no template's field here
    return f"[{names} (qualified_identifier scope: (namespace_identifier) @{capture}_package name: [{names}])]"


_CPP_TYPE = _cpp_type("bound")


def _csharp_type(capture: str) -> str:
    """A C# type by its name, nullable or not (``Store``, ``Store?``): ``@<capture>_type``."""
    return f"[(identifier) @{capture}_type (nullable_type type: (identifier) @{capture}_type)]"


def _kotlin_property(capture: str) -> str:
    """A Kotlin property typed by a name, nullable or not (``val cache: Cache?``), or by the
    constructor it is given (``val cache = Cache()``): ``@<capture>`` and ``@<capture>_type``."""
    return f"""
(property_declaration (variable_declaration (identifier) @{capture} {_kotlin_type(capture)}))
(property_declaration (variable_declaration (identifier) @{capture})
  (call_expression . (identifier) @{capture}_type (#match? @{capture}_type "^[A-Z]")))"""


def _kotlin_type(capture: str) -> str:
    """A Kotlin type by its name, nullable or not (``Store``, ``Store?``): ``@<capture>_type``."""
    return f"[(user_type (identifier) @{capture}_type) (nullable_type (user_type (identifier) @{capture}_type))]"


def _swift_property(capture: str) -> str:
    """A Swift property typed by a name, optional or not (``let api: ShopAPI?``), by the
    constructor it is given (``let cache = TimelineCache()``), or as an array or a dictionary
    (``var filtered: [Status]``): ``@<capture>`` and ``@<capture>_type``."""
    name = f"(property_declaration name: (pattern bound_identifier: (simple_identifier) @{capture})"
    return f"""
{name}
  (type_annotation {_swift_type(capture)}))
{name}
  value: (call_expression . (simple_identifier) @{capture}_type (#match? @{capture}_type "^[A-Z]")))
{name}
  (type_annotation [(array_type) (dictionary_type)] @{capture}_type))"""


def _swift_type(capture: str) -> str:
    """A Swift type by its name, optional or not (``Store``, ``Store?``): ``@<capture>_type``."""
    user = f"(user_type (type_identifier) @{capture}_type)"
    return f"[{user} (optional_type wrapped: {user})]"


def _php_type(capture: str) -> str:
    """A PHP type by its class's name (``@<capture>_type``): ``Store``, ``?Store``, ``Store|null``
    (a union of two classes gives two types, and the name none: ``_one_type``)."""
    named = f"(named_type (name) @{capture}_type)"
    return f"[{named} (optional_type {named}) (union_type {named})]"


TYPED = {
    "javascript": _JS_TYPED,
    "typescript": _JS_TYPED + _TS_TYPED,
    "tsx": _JS_TYPED + _TS_TYPED,
    "java": """
(formal_parameter type: (type_identifier) @bound_type name: (identifier) @bound)
(local_variable_declaration
  type: (type_identifier) @bound_type declarator: (variable_declarator name: (identifier) @bound))
""",
    "go": """
(parameter_declaration
  name: (identifier) @bound type: [(type_identifier) @bound_type (pointer_type (type_identifier) @bound_type)])
(short_var_declaration left: (expression_list . (identifier) @bound)
  right: (expression_list . [(composite_literal type: (type_identifier) @bound_type)
                             (unary_expression operand: (composite_literal type: (type_identifier) @bound_type))]))
(var_spec name: (identifier) @bound type: (type_identifier) @bound_type)
(var_spec name: (identifier) @bound value: (expression_list . (composite_literal type: (type_identifier) @bound_type)))
"""
    + _GO_QUALIFIED_TYPED,
    "rust": """
(parameter pattern: (identifier) @bound
  type: [(type_identifier) @bound_type (reference_type type: (type_identifier) @bound_type)])
(let_declaration pattern: (identifier) @bound type: (type_identifier) @bound_type)
(let_declaration pattern: (identifier) @bound
  value: (call_expression function: (scoped_identifier path: (identifier) @bound_type name: (identifier) @bound_new)))
""",
    "ruby": """
(assignment left: (identifier) @bound right: (call receiver: (constant) @bound_type method: (identifier) @bound_new))
""",
    "php": f"""
(simple_parameter type: {_php_type("bound")} name: (variable_name) @bound)
(assignment_expression left: (variable_name) @bound right: (object_creation_expression (name) @bound_type))
""",
    "csharp": f"""
(parameter type: {_csharp_type("bound")} name: (identifier) @bound)
(variable_declaration type: {_csharp_type("bound")} (variable_declarator name: (identifier) @bound))
(variable_declarator name: (identifier) @bound (object_creation_expression type: (identifier) @bound_type))
""",
    "kotlin": f"""
(parameter (identifier) @bound {_kotlin_type("bound")})
{_kotlin_property("bound")}
""",
    "swift": f"""
(parameter (simple_identifier) @bound . {_swift_type("bound")})
{_swift_property("bound")}
""",
    "scala": """
(parameter name: (identifier) @bound type: (type_identifier) @bound_type)
(val_definition pattern: (identifier) @bound type: (type_identifier) @bound_type)
(val_definition pattern: (identifier) @bound value: (instance_expression . (type_identifier) @bound_type))
""",
    # C++: a parameter or local declared with its type (``VersionEdit* edit``, ``const Options& o``,
    # ``Status s;``, ``Table* t = nullptr;``, ``std::string s``: the standard library's); ``auto`` none
    "cpp": f"""
(parameter_declaration type: {_CPP_TYPE} declarator: {_CPP_NAME})
(declaration type: {_CPP_TYPE} declarator: [{_CPP_NAME} (init_declarator declarator: {_CPP_NAME})])
""",
}
# Names assigned again (``x = new B()`` after ``let x = new A()``): no type is kept for them. Ruby's
# assignments are its bindings too: a name assigned twice is one of them.
ASSIGNED = {
    "javascript": "(assignment_expression left: (identifier) @assigned)",
    "go": "(assignment_statement left: (expression_list (identifier) @assigned))",
    "ruby": "(assignment left: (identifier) @assigned)",
    "php": "(assignment_expression left: (variable_name) @assigned)",
    "kotlin": "(assignment left: (identifier) @assigned)",
    "swift": "(assignment target: (directly_assignable_expression (simple_identifier) @assigned))",
}
for _language in ("typescript", "tsx", "java", "rust", "csharp"):
    ASSIGNED[_language] = ASSIGNED["javascript"]
# Fields a class declares with a type it spells (``@field`` of ``@field_type``): a call on
# ``this.store``, ``self.store``, Go's ``s.store`` (``s`` the receiver), Java's and C++'s bare
# ``store`` (C++'s ``this->store``) is a call on that type. TypeScript's parameter properties
# (``constructor(private db: Db)``) too.
FIELDS = {
    "typescript": """
(public_field_definition name: [(property_identifier) (private_property_identifier)] @field
  type: (type_annotation (type_identifier) @field_type))
(required_parameter (accessibility_modifier) pattern: (identifier) @field
  type: (type_annotation (type_identifier) @field_type))
""",
    "java": """
(field_declaration type: (type_identifier) @field_type declarator: (variable_declarator name: (identifier) @field))
""",
    "go": """
(field_declaration name: (field_identifier) @field
  type: [(type_identifier) @field_type (pointer_type (type_identifier) @field_type)])
""",
    "rust": """
(field_declaration name: (field_identifier) @field
  type: [(type_identifier) @field_type (reference_type type: (type_identifier) @field_type)])
""",
    # PHP: ``private Repo $repo;`` and a constructor's promoted ``private Repo $repo`` (``$this->repo``)
    "php": f"""
(property_declaration type: {_php_type("field")} (property_element name: (variable_name (name) @field)))
(property_promotion_parameter type: {_php_type("field")} name: (variable_name (name) @field))
""",
    # Kotlin: a constructor's ``private val repo: Repo`` and a property ``val cache: Cache = …``
    "kotlin": f"""
(class_parameter (identifier) @field {_kotlin_type("field")})
{_kotlin_property("field")}
""",
    # Swift: ``private let api: ShopAPI``
    "swift": f"""
{_swift_property("field")}
""",
    # Scala: a class parameter ``api: ShopApi`` and ``private val cache: Cache``
    "scala": """
(class_parameter name: (identifier) @field type: (type_identifier) @field_type)
(val_definition pattern: (identifier) @field type: (type_identifier) @field_type)
""",
    # C#: ``private readonly IRepo _repo;`` and a property ``public IRepo Repo { get; }``
    "csharp": f"""
(field_declaration (variable_declaration type: {_csharp_type("field")} (variable_declarator name: (identifier) @field)))
(property_declaration type: {_csharp_type("field")} name: (identifier) @field)
""",
    # C++: ``TableCache* table_cache_;``, ``Options options_;``, ``port::Mutex mu_;`` (``@field_package``)
    "cpp": f"""
(field_declaration
  type: {_cpp_type("field")}
  declarator: [(field_identifier) @field
               (pointer_declarator declarator: (field_identifier) @field)
               (reference_declarator (field_identifier) @field)])
""",
}
FIELDS["tsx"] = FIELDS["typescript"]
# The classes a class extends, the types a Go struct embeds, the modules a Ruby class includes
# (``@base`` of the class ``@base_class``; ``@base_include``: the call that includes it):
# a self call its own class does not answer reaches its bases' method (``graph.bases``). By their
# names (``extends Base``, ``*Base``; Ruby's ``Foo::Base`` and C++'s ``ns::Base`` by their last; not
# ``extends mixin(B)``, Go's ``pkg.Type``).
_TS_BASES = """
(class_declaration name: (type_identifier) @base_class (class_heritage (extends_clause value: (identifier) @base)))
(abstract_class_declaration name: (type_identifier) @base_class
  (class_heritage (extends_clause value: (identifier) @base)))
"""
_CPP_BASE = (
    "[(type_identifier) @base (template_type name: (type_identifier) @base)"
    " (qualified_identifier name: [(type_identifier) @base (qualified_identifier name: (type_identifier) @base)])]"
)
_JAVA_TYPE = "[(type_identifier) @base (generic_type (type_identifier) @base)]"
_RUBY_CONSTANT = "[(constant) @base (scope_resolution name: (constant) @base)]"
_RUBY_NAME = "[(constant) @base_class (scope_resolution name: (constant) @base_class)]"
_RUBY_INCLUDE = f"(call !receiver method: (identifier) @base_include arguments: (argument_list . {_RUBY_CONSTANT}))"
_PHP_NAME = "[(name) @base (qualified_name (name) @base)]"
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
    "kotlin": """
(class_declaration name: (identifier) @base_class
  (delegation_specifiers (delegation_specifier (constructor_invocation (user_type (identifier) @base)))))
(class_declaration name: (identifier) @base_class
  (delegation_specifiers (delegation_specifier (user_type (identifier) @base))))
""",
    # Swift: the superclass and the protocols, one list (``: BaseStore, Loading``)
    "swift": """
(class_declaration name: (type_identifier) @base_class
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base)))
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
# variable, a destructured one (``const { get, error } = useApi()``), a parameter, a caught error.
# A bare call of one inside that function calls the value it holds, never the project's function of
# that name in another file (``tree_calls``).
_JS_LOCALS = """
(variable_declarator name: (identifier) @local)
(object_pattern (shorthand_property_identifier_pattern) @local)
(object_pattern (pair_pattern value: (identifier) @local))
(array_pattern (identifier) @local)
(arrow_function parameter: (identifier) @local)
(catch_clause parameter: (identifier) @local)
"""
LOCALS = {
    "javascript": _JS_LOCALS + "(formal_parameters (identifier) @local)",
    "typescript": _JS_LOCALS + "(required_parameter pattern: (identifier) @local)"
    "(optional_parameter pattern: (identifier) @local)",
}
LOCALS["tsx"] = LOCALS["typescript"]
# A function handed over as a value (``@value``): a handler registered by name (pocketbase's
# ``sub.GET("", realtimeConnect)``, Express's ``app.get('/', list)``, a callback ``items.map(format)``,
# React's ``onClick={save}``), and Go's ``security.RandomString`` (``@value_package``, ``@value_name``).
# ``tree_calls`` keeps those naming a function of the file or one imported from the project.
# A React component rendered (``<MetricCard … />``, ``<Table.Row>``) is a call of it; ``<div>`` is a tag.
_JSX = """
(jsx_expression (identifier) @value)
(jsx_opening_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_opening_element name: (member_expression object: (identifier) @recv property: (property_identifier) @method))
(jsx_self_closing_element name: (member_expression object: (identifier) @recv property: (property_identifier) @method))
"""
VALUES = {
    "javascript": "(arguments (identifier) @value)" + _JSX,
    "typescript": "(arguments (identifier) @value)",
    "tsx": "(arguments (identifier) @value)" + _JSX,
    "go": """
(argument_list (identifier) @value)
(argument_list (selector_expression operand: (identifier) @value_package field: (field_identifier) @value_name))
""",
}


@cache
def query(language: str, which: str) -> Any:
    """``calls``: the call sites, with the typed bindings, the assignments, the bases, JavaScript's
    locals and Go's receivers, in one query (one walk of the tree: each query walks it all); ``imports``: what the
    file binds to modules (run on its top-level statements)."""
    from tree_sitter import Query

    if which == "imports":
        return Query(grammar(language), IMPORTS[language])
    parts = (CALLS, TYPED, ASSIGNED, FIELDS, BASES, LOCALS, VALUES, {"go": GO_RECEIVER})
    return Query(grammar(language), "".join(part.get(language, "") for part in parts))
