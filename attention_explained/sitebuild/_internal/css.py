"""Cut a stylesheet down to the rules that can match a given set of pages.

mkdocs-jupyter inlines all of JupyterLab's CSS (≈600 KB, 90 KB gzip-compressed) into each
notebook page; the site moves it into one shared file, and :func:`prune_css` keeps only
the rules whose selectors can match the notebook pages' markup. A selector is dropped when
it names a class or an id that no page contains; everything else (element, attribute and
pseudo selectors, @font-face, @keyframes) is kept, so the cut errs on the side of keeping.
Custom properties that no kept rule uses, directly or through another property, go too.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import time
from pathlib import Path

import tinycss2

from attention_explained.sitebuild._internal.storage import STALE_AFTER, read_file, write_file

CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
ID_ATTRIBUTE = re.compile(r'\bid="([^"]*)"')
SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][-_a-zA-Z0-9]*)")
SELECTOR_ID = re.compile(r"#(-?[_a-zA-Z][-_a-zA-Z0-9]*)")
PSEUDO_ARGUMENT = re.compile(r":(?:not|where|is)\([^()]*\)")
VAR_USE = re.compile(r"var\(\s*(--[-_a-zA-Z0-9]+)")


def markup_names(pages: list[str]) -> tuple[set[str], set[str]]:
    """(classes, ids) used anywhere in `pages` (HTML)."""
    classes: set[str] = set()
    ids: set[str] = set()
    for html in pages:
        for value in CLASS_ATTRIBUTE.findall(html):
            classes.update(value.split())
        ids.update(ID_ATTRIBUTE.findall(html))
    return classes, ids


def _selector_can_match(selector: str, classes: set[str], ids: set[str]) -> bool:
    # :not(.x) matches where .x is absent: its contents must not remove the selector.
    positive = PSEUDO_ARGUMENT.sub("", selector)
    return all(c in classes for c in SELECTOR_CLASS.findall(positive)) and all(
        i in ids for i in SELECTOR_ID.findall(positive)
    )


def _split_selectors(prelude: str) -> list[str]:
    parts, depth, current = [], 0, []
    for char in prelude:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def _prune_rules(rules, classes: set[str], ids: set[str]) -> list:
    """Kept rules as (prelude, declarations) or (at-rule head, nested list | raw text)."""
    out: list = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = _split_selectors(tinycss2.serialize(rule.prelude))
            kept = [s for s in selectors if _selector_can_match(s, classes, ids)]
            if kept:
                declarations = [
                    d
                    for d in tinycss2.parse_declaration_list(
                        rule.content, skip_comments=True, skip_whitespace=True
                    )
                    if d.type == "declaration"
                ]
                out.append((", ".join(kept), declarations))
        elif rule.type == "at-rule":
            keyword = rule.lower_at_keyword
            prelude = tinycss2.serialize(rule.prelude).strip()
            if keyword in ("media", "supports", "layer") and rule.content is not None:
                inner = tinycss2.parse_rule_list(
                    rule.content, skip_comments=True, skip_whitespace=True
                )
                body = _prune_rules(inner, classes, ids)
                if body:
                    out.append((f"@{keyword} {prelude}", body))
            elif keyword == "charset":
                continue
            elif rule.content is None:
                out.append((f"@{keyword} {prelude};", None))
            else:
                out.append((f"@{keyword} {prelude}", tinycss2.serialize(rule.content).strip()))
    return out


def _walk_declarations(rules: list):
    for _head, body in rules:
        if isinstance(body, list) and body and not isinstance(body[0], tuple):
            yield from body
        elif isinstance(body, list):
            yield from _walk_declarations(body)


def _used_custom_properties(rules: list) -> set[str]:
    """Custom properties that a kept declaration uses, directly or through another one."""
    declared: dict[str, list[str]] = {}
    used: set[str] = set()
    for declaration in _walk_declarations(rules):
        value = tinycss2.serialize(declaration.value)
        if declaration.name.startswith("--"):
            declared.setdefault(declaration.name, []).append(value)
        else:
            used.update(VAR_USE.findall(value))
    frontier = list(used)
    while frontier:
        for value in declared.get(frontier.pop(), []):
            for ref in VAR_USE.findall(value):
                if ref not in used:
                    used.add(ref)
                    frontier.append(ref)
    return used


def _serialize(rules: list, used: set[str]) -> list[str]:
    out = []
    for head, body in rules:
        if body is None:
            out.append(head)
        elif isinstance(body, str):
            out.append(f"{head}{{{body}}}")
        elif body and isinstance(body[0], tuple):
            inner = _serialize(body, used)
            if inner:
                out.append(f"{head}{{{''.join(inner)}}}")
        else:
            kept = [
                f"{d.name}:{tinycss2.serialize(d.value).strip()}"
                + ("!important" if d.important else "")
                for d in body
                if not d.name.startswith("--") or d.name in used
            ]
            if kept:
                out.append(f"{head}{{{';'.join(kept)}}}")
    return out


def prune_css(css: str, pages: list[str]) -> str:
    """`css` without the rules that cannot match any of `pages` (HTML strings)."""
    classes, ids = markup_names(pages)
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    kept = _prune_rules(rules, classes, ids)
    return "\n".join(_serialize(kept, _used_custom_properties(kept)))


def pruned_css(css: str, pages: list[str], cache_dir: Path) -> str:
    """:func:`prune_css`, kept under ``cache_dir`` by what it depends on: the stylesheet, the
    pages and this module. A build whose notebooks did not change reads the result instead
    of parsing 600 KB of CSS again."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for part in (css, *pages):
        digest.update(b"\0" + part.encode("utf-8"))
    cached = Path(cache_dir) / f"{digest.hexdigest()[:20]}.css"
    payload = read_file(cached)  # None if absent or damaged (then it is made again)
    if payload is not None:
        return payload.decode("utf-8")
    text = prune_css(css, pages)
    cached.parent.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for old in cached.parent.glob("*.css"):  # superseded, once no build can still read it
        with contextlib.suppress(FileNotFoundError):
            if now - old.stat().st_mtime > STALE_AFTER:
                old.unlink()
    write_file(cached, text.encode())
    return text
