"""What each tree-sitter language's code says about its calls, beyond its grammar (``tree_calls``
reads them): the node types of a receiver that is the method's own object or one of its fields, the
names a language provides itself (its built-in functions, a runtime's globals, .NET's base classes),
and which languages call a method bare or name a class by a capital. Standard library only."""

from __future__ import annotations

# A receiver that is a field of the method's own object: its node type, the object's field, the field's.
FIELD_ACCESS = {
    "member_expression": ("object", "property"),
    "field_access": ("object", "field"),
    "field_expression": ("value", "field"),
    "selector_expression": ("operand", "field"),
    "navigation_expression": ("target", "suffix"),  # Swift's ``self.store`` (Kotlin's has no fields)
}
CPP_FIELD_ACCESS = ("argument", "field")  # C++'s ``this->store`` (Rust's field_expression is above)
# PHP's ``$this->store`` and C#'s ``this.store``: one node type, its fields named apart
MEMBER_ACCESS = {"php": ("object", "name"), "csharp": ("expression", "name")}
TYPE_NAMES = frozenset({"identifier", "constant", "simple_identifier"})  # a receiver naming a class (Ruby: a constant)
# Languages where a method names its object's field bare (``store.save()`` for ``this.store.save()``).
BARE_FIELDS = frozenset({"java", "cpp", "csharp", "kotlin", "swift", "scala"})
OUTER_FIELDS = frozenset({"java", "kotlin"})  # whose inner classes read their outer classes' fields
# a name's node: PHP's ``$this`` is a variable_name, Swift's names simple_identifiers
NAMES = frozenset({"identifier", "variable_name", "simple_identifier"})
IMPORTING = frozenset({"import_statement", "import_declaration", "lexical_declaration", "variable_declaration"})
SELF = frozenset({"this", "self", "this_expression", "self_expression"})  # Kotlin's, Swift's: expression nodes
# Lower-case receivers JavaScript's runtimes bind: calls on them are the runtime's.
JS_GLOBALS = frozenset({"console", "process", "window", "document", "globalThis", "navigator", "module", "exports"})
# Classes of .NET's base library and of the test frameworks called through their names
# (``Console.WriteLine()``, ``Assert.Equal()``): calls on them are no project's.
CSHARP_SYSTEM = frozenset(
    {"Console", "Math", "String", "Task", "Convert", "DateTime", "DateTimeOffset", "TimeSpan", "Guid", "Enumerable"}
    | {"File", "Path", "Directory", "Environment", "Debug", "Trace", "Array", "Encoding", "Thread", "Activator"}
    | {"Assert", "CollectionAssert", "StringAssert", "Object", "Int32", "Int64", "Double", "Decimal", "Boolean"}
    | {"JsonSerializer", "Regex", "Interlocked", "Volatile", "GC", "Buffer", "BitConverter", "Uri", "Type"}
)
# Plain calls of what the language itself provides, no reference (as Python's builtins are not).
BUILTIN_CALLS = {
    "javascript": frozenset({"require", "parseInt", "parseFloat", "setTimeout", "setInterval", "clearTimeout"}),
    "ruby": frozenset(
        {"require", "require_relative", "puts", "print", "p", "raise", "attr_reader", "attr_writer", "attr_accessor"}
        | {"include", "extend", "private", "protected", "public", "lambda", "proc", "loop", "format", "new"}
    ),
    "go": frozenset({"len", "cap", "make", "new", "append", "copy", "delete", "panic", "recover", "print", "println"}),
    "php": frozenset(
        {"count", "strlen", "sprintf", "printf", "implode", "explode", "trim", "substr", "strpos", "str_replace"}
        | {"strtolower", "strtoupper", "ucfirst", "str_contains", "str_starts_with", "str_ends_with", "is_null"}
        | {"is_array", "is_string", "is_int", "is_numeric", "is_object", "is_callable", "in_array", "array_map"}
        | {"array_filter", "array_merge", "array_keys", "array_values", "array_key_exists", "array_search"}
        | {"array_slice", "array_unique", "array_push", "iterator_to_array", "json_encode", "json_decode"}
        | {"preg_match", "preg_replace", "preg_split", "var_dump", "print_r", "get_class", "method_exists"}
        | {"class_exists", "function_exists", "define", "defined", "compact", "dirname", "basename", "file_exists"}
        | {"file_get_contents", "file_put_contents", "call_user_func", "call_user_func_array", "func_get_args"}
        | {"intval", "max", "min", "abs", "round", "sort", "usort", "ksort", "range", "htmlspecialchars"}
    ),
    "csharp": frozenset({"nameof"}),
    "kotlin": frozenset(
        {"println", "print", "listOf", "mutableListOf", "setOf", "mutableSetOf", "mapOf", "mutableMapOf", "arrayOf"}
        | {"emptyList", "emptyMap", "emptySet", "require", "requireNotNull", "check", "checkNotNull", "error", "TODO"}
        | {"lazy", "with", "repeat", "buildList", "buildString", "listOfNotNull"}  # not ``run``: a project's own too
    ),
    "swift": frozenset(
        {"print", "debugPrint", "fatalError", "precondition", "assert", "assertionFailure", "zip", "stride"}
    ),
    "scala": frozenset(
        {"println", "print", "require", "assert", "Some", "Seq", "List", "Map", "Set", "Option", "Vector", "Array"}
    ),
    "lua": frozenset(
        {"require", "print", "pairs", "ipairs", "next", "type", "tostring", "tonumber", "error", "assert"}
        | {"pcall", "xpcall", "select", "setmetatable", "getmetatable", "rawget", "rawset", "rawequal", "unpack"}
        | {"load", "loadstring", "dofile", "collectgarbage"}
    ),
    # Elixir: Kernel's macros and functions, the definition macros, ExUnit's and Ecto's schema words
    "elixir": frozenset(
        {"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defmodule"}
        | {"defprotocol", "defimpl", "defstruct", "defexception", "defoverridable", "defn", "defnp"}
        | {"alias", "import", "use", "require", "quote", "unquote", "unquote_splicing", "super", "fn"}
        | {"if", "unless", "case", "cond", "with", "for", "try", "receive", "raise", "reraise", "throw"}
        | {"send", "spawn", "spawn_link", "self", "exit", "apply", "struct", "struct!", "inspect", "to_string"}
        | {"is_atom", "is_binary", "is_bitstring", "is_boolean", "is_float", "is_function", "is_integer"}
        | {"is_list", "is_map", "is_map_key", "is_nil", "is_number", "is_pid", "is_tuple", "is_struct"}
        | {"length", "hd", "tl", "elem", "put_elem", "map_size", "tuple_size", "byte_size", "abs", "div"}
        | {"rem", "round", "trunc", "max", "min", "not", "get_in", "put_in", "update_in", "pop_in", "then"}
        | {"tap", "dbg", "binding", "match?", "sigil_r", "sigil_s", "sigil_w"}
        | {"describe", "test", "setup", "setup_all", "assert", "refute", "assert_raise", "assert_receive"}
        | {"refute_receive", "doctest", "on_exit", "start_supervised", "start_supervised!", "property", "check"}
        | {"schema", "embedded_schema", "field", "belongs_to", "has_many", "has_one", "many_to_many"}
        | {"timestamps", "embeds_one", "embeds_many", "plug", "pipe_through", "pipeline", "scope", "resources"}
        | {"forward", "live", "live_session"}
    ),
}
BUILTIN_CALLS["typescript"] = BUILTIN_CALLS["tsx"] = BUILTIN_CALLS["javascript"]
# Methods the standard library gives the values code handles most (Rust's ``Option``, ``Result``, ``Vec``,
# ``str``, iterators, ``Clone``…), no reference when called on a value of a type the code does not
# say: in ripgrep, ``.unwrap()`` was 368 guessed calls of ``GramQuery::unwrap``, ``.as_bytes()`` 149 of
# each of four of the project's ``as_bytes``, ``args.push()`` calls of ``Stack::push``. A receiver whose
# type is said (``s: &Searcher``, ``self``) still reaches the project's method of that name.
STD_METHODS = {
    "rust": frozenset(
        {"unwrap", "expect", "unwrap_or", "unwrap_or_else", "unwrap_or_default", "map", "map_err", "and_then"}
        | {"or_else", "ok", "err", "ok_or", "ok_or_else", "is_some", "is_none", "is_ok", "is_err", "clone"}
        | {"to_string", "to_owned", "into", "as_ref", "as_mut", "borrow", "borrow_mut", "as_str", "as_bytes"}
        | {"iter", "iter_mut", "into_iter", "collect", "next", "push", "pop", "len", "is_empty", "to_vec"}
        | {"extend", "contains", "get", "get_mut"}
    ),
    # JavaScript's arrays, strings and promises (outline, walked: ``ids.push()`` and ``docs.map()`` on
    # untyped values were guessed to be ``history.push`` and ``ColumnSelection.map``, crowding the
    # neighbours of ``documentMover``); not ``get``, ``set``, ``add`` or ``delete``, which stores have
    "javascript": frozenset(
        {"push", "pop", "shift", "unshift", "map", "filter", "forEach", "reduce", "find", "findIndex", "some"}
        | {"every", "includes", "indexOf", "join", "slice", "splice", "concat", "sort", "flat", "flatMap"}
        | {"then", "catch", "finally", "toString", "trim", "split", "replace", "replaceAll", "toLowerCase"}
        | {"toUpperCase", "startsWith", "endsWith", "padStart", "padEnd", "charAt"}
    ),
}
STD_METHODS["typescript"] = STD_METHODS["tsx"] = STD_METHODS["javascript"]
# Ruby's core collections and strings, and what every Rails model answers (lobsters, walked: every
# ``x.id`` was a guess at ``ShortId::CandidateId#id``, an ``attr_accessor``, so that "what depends on
# ShortId" listed a hundred ``.id`` reads and none of its users; ``@story.valid?`` reached
# ``CandidateId#valid?``, ``params.delete`` Sinatra's ``delete`` route method)
STD_METHODS["ruby"] = frozenset(
    {"each", "map", "select", "reject", "collect", "detect", "each_with_index", "each_with_object", "inject"}
    | {"reduce", "sort_by", "group_by", "flat_map", "include?", "empty?", "any?", "all?", "none?", "nil?"}
    | {"present?", "blank?", "to_s", "to_i", "to_f", "to_a", "to_h", "to_sym", "id", "merge", "merge!", "delete"}
    | {"keys", "values", "join", "split", "strip", "downcase", "upcase", "gsub", "sub", "length", "size", "count"}
    | {"first", "last", "push", "pop", "respond_to?", "is_a?", "kind_of?", "dup", "freeze", "fetch", "dig", "key?"}
    | {"sort", "uniq", "compact", "flatten", "min", "max", "sum", "start_with?", "end_with?", "valid?", "errors"}
    | {"persisted?", "new_record?", "reload", "save", "save!", "update", "update!", "destroy"}
)
# Languages where a bare call in a method (``save()``) may be one on the method's own object: it
# reaches the method of that name of the class or its bases, else what a plain call reaches (Elixir:
# a bare call in a module's function, that module's function first).
IMPLICIT_SELF = frozenset({"java", "ruby", "cpp", "csharp", "kotlin", "swift", "scala", "elixir"})
# Languages where a capitalised receiver names a class (``Config.load()``; Ruby: a constant).
CAPITALISED_TYPES = frozenset({"javascript", "typescript", "tsx", "java", "ruby", "csharp", "kotlin", "swift", "scala"})
# A receiver that is the class itself, in a static call (PHP's ``self::make()``, ``static::make()``)
# or in a call on its bases alone (``super.save()``, C#'s ``base.Save()``, PHP's ``parent::save()``).
OWN_CLASS = frozenset({"self", "static"})
# ``new K()``: Java's and C#'s, C++'s and JavaScript's, Scala's
CREATION = frozenset({"object_creation_expression", "new_expression", "instance_expression"})
BASES_ONLY = frozenset({"super", "base", "super_expression"})  # Kotlin's and Swift's ``super``: expressions
# The object's own name where the grammar reads it as a plain name: PHP's ``$this``, Scala's ``this``
# (its ``super`` likewise, a call on the bases alone).
SELF_NAMES = {"php": "$this", "scala": "this", "lua": "self", "elixir": "__MODULE__"}
# Lua's standard tables and the hosts' globals (Neovim's ``vim``, OpenResty's ``ngx``, LuaJIT's ``jit``,
# LÖVE's ``love``): calls on them (``vim.api.nvim_echo()``, ``table.insert()``) are no project's.
LUA_GLOBALS = frozenset(
    {"table", "string", "math", "os", "io", "coroutine", "debug", "utf8", "package", "bit", "jit"}
    | {"vim", "ngx", "love"}
)
SUPER_NAMES = {"scala": "super"}
