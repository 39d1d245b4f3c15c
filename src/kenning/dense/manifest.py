"""The index manifest: which model, weights and text recipe built an embedder's vectors.

A stored manifest that differs from the running embedder's is *incompatible*: the query path
refuses it (:func:`check`, a :class:`~kenning.errors.DenseRefused` naming both); the sync
announces a reindex and rebuilds (:func:`announce`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from kenning.dense.embed import Embedder
from kenning.errors import DenseRefused

# Bumped when the text an excerpt is embedded from changes (kenning.dense.index.text_of).
RECIPE = "title+body1000;code=title+docstring+signature;v1"


def expected(embedder: Embedder) -> dict[str, Any]:
    """The manifest the running embedder would write."""
    described = embedder.describe()
    fingerprint = hashlib.sha256(json.dumps({**described, "recipe": RECIPE}, sort_keys=True).encode()).hexdigest()
    return {
        "model_id": embedder.model_id,
        "weights_sha256": embedder.weights_sha256,
        "dimension": embedder.dimension,
        "pooling": embedder.pooling,
        "fingerprint": fingerprint,
    }


def differences(stored: dict[str, Any], embedder: Embedder) -> list[str]:
    want = expected(embedder)
    return [
        f"{key} {str(stored.get(key))[:20]} ≠ {str(value)[:20]}"
        for key, value in want.items()
        if stored.get(key) != value
    ]


def check(stored: dict[str, Any] | None, embedder: Embedder) -> None:
    """Refuse an index built by another model or configuration."""
    if stored is None:
        return
    diff = differences(stored, embedder)
    if diff:
        raise DenseRefused(
            f"the dense index ({embedder.name}) was built by {stored.get('model_id')} and this installation runs "
            f"{embedder.model_id}: {'; '.join(diff)}; refusing to compare vectors from different models",
            hint="run `kenning sync` to reindex with the installed model",
        )


def announce(stored: dict[str, Any], embedder: Embedder) -> str:
    return (
        f"dense reindex ({embedder.name}): the index was built by {stored.get('model_id')} "
        f"({'; '.join(differences(stored, embedder))}); every excerpt is embedded again"
    )
