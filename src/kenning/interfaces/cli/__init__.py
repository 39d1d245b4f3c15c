"""The `kenning` command line: data on stdout, progress and warnings on stderr."""
