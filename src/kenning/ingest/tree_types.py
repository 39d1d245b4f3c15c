"""The tree-sitter queries of the types code spells, one set per language, part of the one query
``tree_queries.query`` runs on a file: the names bound to a value of a type (``TYPED``), the names
assigned again (``ASSIGNED``: no type is kept for them) and the fields a class declares with a type
(``FIELDS``). A call on such a name or field is a call on its type (``tree_calls``)."""

from __future__ import annotations

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
# Rust's trait object behind a shared pointer (``Box<dyn Sink>``, ``Arc<dyn Matcher + Send>``): the trait.
_RUST_SHARED = (
    '(generic_type type: (type_identifier) @_pointer (#match? @_pointer "^(Box|Arc|Rc)$")'
    " type_arguments: (type_arguments . [(dynamic_type trait: (type_identifier) @{capture})"
    " (bounded_type . (dynamic_type trait: (type_identifier) @{capture}))]))"
)
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
    # Rust: also a trait object or an ``impl Trait`` (``sink: &mut dyn Sink``, ``wtr: impl WriteColor``): the
    # trait's; a type parameter (``sink: S``) is its bound's (``rust_generics``)
    "rust": f"""
(parameter pattern: (identifier) @bound
  type: [(type_identifier) @bound_type (reference_type type: (type_identifier) @bound_type)
         (dynamic_type trait: (type_identifier) @bound_type)
         (reference_type type: (dynamic_type trait: (type_identifier) @bound_type))
         (abstract_type trait: (type_identifier) @bound_type)
         (reference_type type: (abstract_type trait: (type_identifier) @bound_type))
         {_RUST_SHARED.format(capture="bound_type")}])
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
    "rust": f"""
(field_declaration name: (field_identifier) @field
  type: [(type_identifier) @field_type (reference_type type: (type_identifier) @field_type)
         (dynamic_type trait: (type_identifier) @field_type) {_RUST_SHARED.format(capture="field_type")}])
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
