"""The HTTP route a web framework's decorators or annotations give a method, as words of its excerpt:
NestJS's ``@Controller('articles')`` on the class and ``@Get(':slug')`` on the method, Spring's
``@RequestMapping("/owners")`` and ``@GetMapping("/{ownerId}/edit")``, ASP.NET's ``[Route("api/[controller]")]``
and ``[HttpGet("{id}")]``. The class's part of the path is written once, above the class, so a question
naming the route ("what handles GET /articles/:slug") met the method's own words alone
(nestjs-realworld-example-app, walked: the README's authentication section first). Read from the lines
above a definition's signature, where these frameworks write them."""

from __future__ import annotations

import re

_QUOTED = r"""['"`](?P<{0}>[^'"`]*)['"`]"""
_METHOD = re.compile(
    r"@(?P<nest>Get|Post|Put|Patch|Delete|Head|Options|All)\(\s*(?:" + _QUOTED.format("nest_path") + r")?\s*\)"
    r"|@(?P<spring>Get|Post|Put|Patch|Delete|Request)Mapping\b(?:\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"
    + _QUOTED.format("spring_path")
    + r")?"
    r"|\[Http(?P<aspnet>Get|Post|Put|Patch|Delete|Head|Options)\b(?:\(\s*" + _QUOTED.format("aspnet_path") + r")?"
)
_PREFIX = re.compile(
    r"@Controller\(\s*(?:\{\s*path\s*:\s*)?"
    + _QUOTED.format("nest")
    + r"|@RequestMapping\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"
    + _QUOTED.format("spring")
    + r"|\[Route\(\s*"
    + _QUOTED.format("aspnet")
)


def class_route(head: str, cls: str) -> str | None:
    """The path a class's decorators or annotations (``head``: the lines above its signature) give its
    routes; ASP.NET's ``[controller]`` is the class's name without ``Controller``."""
    match = _PREFIX.search(head) if head else None
    if match is None:
        return None
    path = match["nest"] if match["nest"] is not None else match["spring"] or match["aspnet"] or ""
    return path.replace("[controller]", cls.removesuffix("Controller"))


def method_route(head: str, prefix: str | None) -> str:
    """``VERB path`` of the route a method's decorators or annotations (``head``) declare, its class's
    ``prefix`` before the path (``GET articles/:slug``); "" when they declare none."""
    match = _METHOD.search(head) if head else None
    if match is None:
        return ""
    verb = match["nest"] or match["spring"] or match["aspnet"] or ""
    path = match["nest_path"] or match["spring_path"] or match["aspnet_path"] or ""
    if path.startswith("~/"):  # ASP.NET: a path that ignores the class's
        prefix, path = None, path[2:]
    joined = "/".join(part.strip("/") for part in (prefix or "", path) if part.strip("/"))
    return f"{'ANY' if verb in ('All', 'Request') else verb.upper()} /{joined}"


def words(route: str) -> list[str]:
    """A route's words, as the code spells them apart (``GET /owners/{ownerId}/edit``: GET, owners,
    ownerId, edit)."""
    return _WORD.findall(route)


def spelled(route: str) -> str:
    """A route's words in their order, each kept (``GET /articles/:slug``: ``GET articles slug``): the
    keywords drop a word said before (the parameter ``slug``), and a question naming the route
    ranks its path's words as a phrase (``search.routes``)."""
    return " ".join(words(route))


_WORD = re.compile(r"[^\W_]+")
