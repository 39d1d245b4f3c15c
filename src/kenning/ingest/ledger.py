"""The ledger format now lives in ``kenning.ledger`` (below freshness, which re-reads records).

Kept only so that ``answer/stale.py`` keeps its import; import ``kenning.ledger`` instead.
"""

from kenning.ledger import LEDGER_NAME, LEDGER_PATH

__all__ = ["LEDGER_NAME", "LEDGER_PATH"]
