"""kenning: a local knowledge portal for your projects and your agents."""

__version__ = "0.1.0"
