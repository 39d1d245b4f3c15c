from kenning.ingest.identifiers import keywords_for, split_identifier


def test_camel_case_splits_at_each_capital():
    assert split_identifier("rrfFuse") == ["rrf", "fuse"]


def test_an_acronym_stays_one_part_before_a_capitalised_word():
    assert split_identifier("HTTPServerError") == ["http", "server", "error"]
    assert split_identifier("XMLHttpRequest") == ["xml", "http", "request"]


def test_snake_kebab_and_dotted_names_split_at_their_separators():
    assert split_identifier("rrf_fuse") == ["rrf", "fuse"]
    assert split_identifier("__init__") == ["init"]
    assert split_identifier("kebab-case-name") == ["kebab", "case", "name"]
    assert split_identifier("kenning.ingest.chunks") == ["kenning", "ingest", "chunks"]


def test_digits_stay_with_the_letters_before_them():
    assert split_identifier("parse_v2Token") == ["parse", "v2", "token"]
    assert split_identifier("sha256sum") == ["sha256", "sum"]
    assert split_identifier("HTTP2Server") == ["http2", "server"]


def test_leading_digits_stand_alone():
    assert split_identifier("2faCode") == ["2", "fa", "code"]


def test_a_plain_word_is_one_lowercase_part():
    assert split_identifier("Install") == ["install"]
    assert split_identifier("") == []


def test_keywords_keep_each_identifier_and_add_its_parts():
    assert keywords_for("def rrfFuse(k)") == "def rrfFuse rrf fuse k"


def test_keywords_are_deduplicated_case_insensitively_in_order_of_first_appearance():
    assert keywords_for("Install rrf", "install rrf_fuse") == "Install rrf rrf_fuse fuse"


def test_keywords_drop_trailing_dots_and_lone_underscores():
    assert keywords_for("See config.toml. Then _ go.") == "See config.toml config toml Then go"


def test_keywords_of_texts_without_identifiers_are_empty():
    assert keywords_for("", "123 !!") == ""
