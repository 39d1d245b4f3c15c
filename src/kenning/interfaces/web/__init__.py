"""The web cockpit (`kenning serve`): pages and a JSON API over the same core as the CLI."""
