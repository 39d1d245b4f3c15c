"""Tokens for remote use: records, scopes, bindings, checks, the failed-attempt limit and the
audit log of writes. Standard library only; no interface imports."""
