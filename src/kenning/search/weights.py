"""The weights of the ranking's features (``search.ranker``), each with why it has its value: the
factors (at most 1) that weigh an excerpt down, the boosts that lift it, and how far a file's
excerpts and a document's copies weigh less in turn."""

SUPERSEDED_FACTOR = 0.5
GENERATED_FACTOR = 0.5  # code a tool wrote (``ingest.generated``): jq's ``parser.c`` repeated its grammar's words
DEFINITION_BOOST = 3.0
TEST_FACTOR = 0.5
# "which tests cover X", answered in words (its graph walk found nothing): test code is the answer.
TEST_BOOST = 4.0
# A question asking why, naming no code, wants a rationale: prose (docs, decisions, notes)
# before code, whose signatures repeat the question's words (``follow_redirects: bool = …``).
WHY_CODE_FACTOR = 0.5
# A question asking where the code does something (``search.asked.asks_for_code``: "where in the
# source…", "…implemented?") wants the code: the docs and commit messages that describe the behaviour in
# the question's words weigh this much (zod's "where in the source does z.coerce.number() call
# Number()": the API page first), and a why question's code keeps its weight.
CODE_ASKED_PROSE_FACTOR = 0.5
# A question that asks for a task to be done or names a topic (``search.asked.asks_task``: "exclude a
# directory from the search with a glob", "configure logging", "time zone support") and types no code
# name: code weighs this much, the docs that say how to do it first. The names and signatures of code
# repeat a task's words (ripgrep's ``case_insensitive(yes: bool)`` for "case insensitive search unless
# the pattern has capital letters", its GUIDE's "Common options" out of the first five). Less than a
# why question's weight: where no page says how (a library's internals asked in words), the code
# still answers (docs/benchmarks.md, "taskdocs": 0.5 lost more such questions than 0.7).
TASK_CODE_FACTOR = 0.7
# A question that does not ask about history (``search.history``: when, why, what changed …) wants
# the project as it is: commit messages and the excerpts of changelogs and release notes, which say
# what changed in the words of the docs and code that answer, weigh this much. On a long history
# they crowded those out (httpx's 1,522 commits: docs/benchmarks.md, "clickwalk", "walk4", where
# commits weighed half for "how does", "how to" and "where is" questions only; "historydocs", where
# every question not about history took the rule).
HISTORY_FACTOR = 0.5
# A Rust ``impl`` block's excerpt holds its header alone when nothing precedes its first method
# (``impl Handle {``): one line, whose words are the type's, which BM25 ranked above the code that
# says something (ripgrep, walked: two of the first six answers to "where is the .ignore file
# handled"; 362 of its 3,928 code excerpts). It weighs half, as a test file's excerpt does.
LONE_HEADER_FACTOR = 0.5
# A document's table of contents (``search.contents``): its words are every heading's, it says nothing.
CONTENTS_FACTOR = 0.5
# A template or a stylesheet (``search.factors.is_markup``) for a question that speaks of no page,
# template or style (``search.asked.asks_about_markup``): Django's five-line
# ``read_only_password_hash.html``, its path holding the words, came first for "how are passwords
# hashed" once templates were read (docs/benchmarks.md, "templates").
MARKUP_FACTOR = 0.5
# A license notice (``search.factors.license_notice``) for a question that speaks of no license: the
# Python standard library's modules open with their authors' grants ("Permission to use, copy,
# modify…"), which came first for "how does shutil copy file permissions".
LICENSE_FACTOR = 0.5
# A license's own file (``search.factors.license_file``) for a question that asks about licensing: its
# grant holds few of the question's words ("is gin MIT licensed, can I use it in a proprietary web
# service?"), which every file's license header and the README repeat (gin's ``LICENSE`` was 49th).
LICENSE_FILE_FACTOR = 3.0
# A question asking how to test (``search.asked.asks_how_to_test``): a section of the docs on testing
# (a heading of its title speaks of it) weighs this much; "test", the word that says what it is about,
# weighs little in a project of many tests. (Not enough where the section holds no other word of the
# question: gin's Testing section for "how do I write a unit test for a handler", its "test" 0.5 of BM25.)
TESTING_DOCS_BOOST = 2.0
# An answer to a question (``ask``) keeps room for other files: one file's first ``PER_FILE``
# excerpts keep their score, each further one weighs ``FILE_REPEAT_FACTOR`` times the one before
# (a long CHANGELOG or one test module matching every word filled whole answers: docs/benchmarks.md,
# "perfile"). ``search`` keeps the engine's order (``SearchOptions.per_file`` 0), but for copies (below).
PER_FILE = 2
FILE_REPEAT_FACTOR = 0.5
# For a question not about history, the commit log counts as one file in that rule: on a long history,
# commit subjects that repeat the question's words ("Use session cookies when following redirects",
# "Pass along timeout when following redirects") filled requests' answers to "where are redirects
# followed" at half weight each (docs/benchmarks.md, "commitlog").
COMMIT_LOG = "\0commits"  # no file's path: a NUL ends it
# The copies of one excerpt in a document kept for each release (``search.copies``): the first
# keeps its score, each copy from another file weighs this much times the one before, in every
# answer (``search`` too: the copies are the same text, not the engine's order of other texts);
# a copy kept for a past release (``v1.5/``) weighs ``RELEASE_FACTOR`` before, so that the
# current document's copy comes first (jq's ``v1.5`` manual led ``search sqrt``, its current one
# was fourteenth with the copies' weight alone).
COPY_FACTOR = 0.5
RELEASE_FACTOR = 0.5
# A document in another language's folder than the question's (``search.translations``; English,
# the language most projects write first, never weighed) weighs this much, in every answer: its
# code blocks and names are the original's, and they matched every translation alike.
TRANSLATION_FACTOR = 0.5
# A document whose front matter lists the project's files it was made from (``sources:``: an agent
# skill's ``SKILL.md``, a digest of the docs it names; ``search.factors.derived``). tRPC ships 25 of them
# beside its docs, and they came before the pages they summarise (walked, docs/benchmarks.md "trpcaxum").
DERIVED_FACTOR = 0.5
# Once those weights apply, whether deeper hits can still enter is asked again after the scored
# hits grew by this fraction (``Ranker._closed``), not after each one.
CHECK_SPACING = 8
