"""Search in the reader's language: the build-time data for the site's search worker wrapper.

Material's search (Lunr) indexes Korean word by word and has no Korean stemmer, so 야코비안을
finds nothing although 야코비안 is on four pages. The build analyses the Korean pages' indexed
text with Kiwi (kiwipiepy), a maintained Korean morphological analyser, and ships per language
a small JSON file, ``search/<lang>.json``:

- ``stems``: the noun-like stems Kiwi found at the start of each word (야코비안, 포화, 스케일링);
- ``endings``: every particle or ending Kiwi found after such a stem (을, 가, 된, 하지);
- ``forms``: words whose verb stem is not a prefix of the word (나눈 -> 나누);
- ``synonyms``: (variant, term) pairs from the term sheet's "쓰지 않는 표기" column, each
  applied to whole query words only (synonym_matches: 폭이 is 폭, 폭발 is not);
- ``prefix`` / ``others``: which index locations belong to this language.

``docs/assets/javascripts/workers/search-i18n.js`` reads it: a query word that is a known stem
followed by a known ending becomes that stem (Material then matches it as a prefix), a
synonym adds its term, and documents of other languages are dropped from the index.
Everything here is a pure function of its arguments except ``kiwi_analyser`` (loads Kiwi)
and ``write_search_data`` (reads and writes the cache and the site).
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from attention_explained.sitebuild._internal.storage import read_json, write_json
from attention_explained.sitebuild.terms import Term

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "Analyser",
    "default_language_texts",
    "kiwi_analyser",
    "section_numbers",
    "warm_up",
    "write_search_data",
]

# One morpheme: (form, tag, start, length), offsets in characters of the analysed text.
Morpheme = tuple[str, str, int, int]
Analyser = Callable[[str], Sequence[Morpheme]]

# Sejong tags (Kiwi's tag set) that make up a noun-like stem: nouns, pronouns, numerals,
# foreign words and roots, with noun prefixes and suffixes (정규+화, 헤드+당).
STEM_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "NP", "SL", "SH", "SN", "XR", "XPN", "XSN"})
VERB_TAGS = frozenset({"VV", "VA", "VX"})
HANGUL = re.compile(r"[\uac00-\ud7a3]")
ONLY_HANGUL = re.compile(r"[\uac00-\ud7a3]+")
TAG = re.compile(r"<[^>]+>")
MATH = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)
# Material's default separator; the site's mkdocs.yml passes its own (see search_separator).
DEFAULT_SEPARATOR = r"[\s\-]+"


def plain_text(markup: str) -> str:
    """Indexed HTML (a search entry's title or text) as plain text, TeX removed."""
    return html.unescape(TAG.sub(" ", MATH.sub(" ", markup)))


def words(text: str, separator: str = DEFAULT_SEPARATOR) -> list[tuple[int, int]]:
    """Spans of the words Lunr indexes: the text between matches of the separator."""
    spans, start = [], 0
    for match in re.finditer(separator, text):
        if match.end() == match.start():
            continue  # lookahead-only separators (camelCase splits) do not matter for Hangul
        if match.start() > start:
            spans.append((start, match.start()))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


@functools.lru_cache(maxsize=512)  # about 30 KB an entry: 4 times this site's Korean entries
def _text_lexicon(
    text: str, morphemes: tuple[Morpheme, ...], separator: str
) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, str], ...]]:
    """One text's part of :func:`lexicon`: its stems, its endings and its forms (each word
    once, with the form its last occurrence gave). It depends on its arguments and this
    module's constants only, so it is kept: a `mkdocs serve` rebuild after an edit reads
    again only the entries the edit changed."""
    stems: set[str] = set()
    endings: set[str] = set()
    forms: dict[str, str] = {}
    morphemes = sorted(morphemes, key=lambda m: m[2])
    i = 0
    for start, end in words(text, separator):
        word = text[start:end].lower()
        while i < len(morphemes) and morphemes[i][2] < start:
            i += 1
        inside = []
        j = i
        while j < len(morphemes) and morphemes[j][2] < end:
            inside.append(morphemes[j])
            j += 1
        if not HANGUL.search(word) or not inside or inside[0][2] != start:
            continue
        head_end = start
        for _form, tag, m_start, m_len in inside:
            if tag not in STEM_TAGS or m_start != head_end:
                break
            head_end = m_start + m_len
        if head_end > start:
            stem = word[: head_end - start]
            rest = word[head_end - start :]
            if HANGUL.search(stem):
                stems.add(stem)
                if rest and ONLY_HANGUL.fullmatch(rest):
                    endings.add(rest)
            continue
        form, tag = inside[0][0].lower(), inside[0][1]
        if tag in VERB_TAGS and len(form) >= 2 and not word.startswith(form):
            forms[word] = form
    return frozenset(stems), frozenset(endings), tuple(forms.items())


def lexicon(
    texts: Iterable[str], analyse: Analyser, separator: str = DEFAULT_SEPARATOR
) -> dict[str, object]:
    """Stems, endings and irregular forms of the Korean words in `texts`.

    For each indexed word that contains Hangul, the morphemes the analyser found inside it
    decide: a leading run of noun-like morphemes (STEM_TAGS) is the stem and the rest of
    the word, if Hangul, is an ending; a word led by a verb or adjective whose stem is not
    a prefix of the word (a contraction) is recorded as a form of that stem.
    """
    stems: set[str] = set()
    endings: set[str] = set()
    forms: dict[str, str] = {}
    for text in texts:
        text_stems, text_endings, text_forms = _text_lexicon(
            text, tuple(tuple(m) for m in analyse(text)), separator
        )
        stems |= text_stems
        endings |= text_endings
        forms.update(text_forms)
    # Kiwi reads some unknown words whole (소프트맥스의 as one noun): a "stem" that is a
    # shorter stem plus a known ending is that stem inflected, not a stem of its own.
    inflected = {
        stem
        for stem in stems
        if any(stem[:n] in stems and stem[n:] in endings for n in range(2, len(stem)))
    }
    return {
        "stems": sorted(stems - inflected),
        "endings": sorted(endings),
        "forms": dict(sorted(forms.items())),
    }


def synonyms(terms: Iterable[Term]) -> list[list[str]]:
    """(variant, term) pairs: each "쓰지 않는 표기" variant of the term sheet and its term."""
    pairs = []
    for term in terms:
        pairs += [[variant, term.term] for variant in term.variants]
    return pairs


def synonym_stems(terms: Iterable[Term]) -> set[str]:
    """The Hangul words of every term and variant: stems even where the pages lack them."""
    found: set[str] = set()
    for term in terms:
        for phrase in (term.term, *term.variants):
            found.update(
                w.lower() for w in re.split(r"[\s\-]+", phrase) if ONLY_HANGUL.fullmatch(w)
            )
    return found


def language_data(
    lang: str,
    prefixes: dict[str, str],
    lex: dict[str, object] | None = None,
    pairs: Sequence[Sequence[str]] = (),
) -> dict[str, object]:
    """What the worker needs for one language: its index prefix, the other languages'
    prefixes (to exclude theirs where one prefix contains another), and the query data."""
    if lang not in prefixes:
        raise ValueError(f"lang: {lang!r} is not one of the site's languages {sorted(prefixes)}")
    data: dict[str, object] = {
        "lang": lang,
        "prefix": prefixes[lang],
        "others": sorted(p for other, p in prefixes.items() if other != lang),
    }
    if lex:
        data.update(lex)
    if pairs:
        data["synonyms"] = [list(pair) for pair in pairs]
    return data


def in_language(data: dict[str, object], location: str) -> bool:
    """Whether a search document at ``location`` is one of ``data``'s language (its
    ``search/<lang>.json``): the Python twin of the worker's ``ours`` (search-i18n.js)."""
    prefix = str(data.get("prefix", ""))
    if prefix and not location.startswith(prefix):
        return False
    others = [str(other) for other in data.get("others", ())]  # type: ignore[union-attr]
    return not any(len(other) > len(prefix) and location.startswith(other) for other in others)


def normalise_query(data: dict[str, object], query: str) -> str:
    """The Python twin of the worker's query transform (search-i18n.js), for the unit tests
    and for anyone scripting against the index: stems for Korean words, terms for synonyms."""
    stems = set(data.get("stems", ()))
    endings = set(data.get("endings", ()))
    forms = dict(data.get("forms", {}))
    longest = max((len(s) for s in stems), default=0)

    def stem(word: str) -> str:
        lower = word.lower()
        if lower in forms:
            return forms[lower]
        for n in range(min(longest, len(lower)), 0, -1):
            head, rest = lower[:n], lower[n:]
            if head in stems and (not rest or rest in endings):
                return head
        return word

    out = [
        stem(w) if HANGUL.search(w) and not re.search(r'[+\-*~^:"]', w) else w
        for w in query.split()
    ]
    for term in synonym_terms(data, query):
        if term not in out:
            out.append(term)
    return " ".join(out)


def query_words(query: str) -> list[str | None]:
    """The query's words as synonyms see them: lower case, without quotes, a leading ``+``
    or a trailing ``*``; a word Lunr must not match (``-폭``) is None and ends every run."""
    out: list[str | None] = []
    for word in query.split():
        word = word.lower().replace('"', "")
        out.append(None if word.startswith("-") else re.sub(r"^\+|\*$", "", word))
    return out


def synonym_matches(variant: str, words: Sequence[str | None], endings: Iterable[str]) -> bool:
    """Does `variant` stand in `words` (see query_words) as whole words?

    It does where a run of consecutive words, spaces dropped, is the variant, spaces dropped,
    alone or followed by one of `endings` (the particles and endings the build found after
    stems): 폭, 폭이, 헤드 하나의 차원, 헤드하나의차원, 멀티헤드어텐션을. A variant inside
    another word is not there: 폭발 (explosion) is not 폭, 계층 is not 층.
    """
    target = re.sub(r"\s+", "", variant.lower())
    endings = set(endings)
    for i in range(len(words)):
        joined = ""
        for word in words[i:]:
            if word is None:
                break
            joined += word
            if joined == target or (joined.startswith(target) and joined[len(target) :] in endings):
                return True
            if not target.startswith(joined):
                break  # a run grows only while it is still the start of the variant
    return False


def synonym_terms(data: dict[str, object], query: str) -> list[str]:
    """The terms of the term sheet's variants that stand in `query` as whole words, in the
    order of the variants, longest first (each term once)."""
    words = query_words(query)
    endings = set(data.get("endings", ()))
    terms: list[str] = []
    for variant, term in sorted(data.get("synonyms", ()), key=lambda p: -len(p[0])):
        if term not in terms and synonym_matches(variant, words, endings):
            terms.append(term)
    return terms


_kiwi = None  # loaded once per process: `mkdocs serve` keeps it across rebuilds
_analysed: dict[str, list[Morpheme]] = {}  # text → Kiwi's morphemes, for unchanged pages
_kiwi_lock = threading.Lock()  # the serve warm-up thread and a rebuild may both analyse


# Kiwi without its typo-correction and multi-word dictionaries: on this site's Korean pages
# the lexicon is the same (tests/test_search_data.py compares them), and loading and
# analysis take ~40 % less CPU, most of a cold build's search step.
KIWI_OPTIONS = {"load_typo_dict": False, "load_multi_dict": False}


def kiwi_analyser() -> Analyser:
    """Kiwi's morphological analysis as an Analyser (loads its model once: about a second).

    Each text's analysis is kept for the life of the process, so a `mkdocs serve` rebuild
    after editing one page analyses only that page's entries again.
    """
    global _kiwi
    with _kiwi_lock:
        if _kiwi is None:
            from kiwipiepy import Kiwi

            _kiwi = Kiwi(**KIWI_OPTIONS)
        if len(_analysed) > 20_000:  # a long serve session: start over rather than grow
            _analysed.clear()
    kiwi = _kiwi

    def analyse(text: str) -> list[Morpheme]:
        found = _analysed.get(text)
        if found is None:
            with _kiwi_lock:
                tokens = kiwi.tokenize(text)
            found = _analysed[text] = [(t.form, t.tag, t.start, t.len) for t in tokens]
        return found

    return analyse


def warm_up(texts: Sequence[str]) -> threading.Thread:
    """``mkdocs serve``: load Kiwi and analyse ``texts`` (indexed entries) in the background,
    so that the first rebuild after an edit analyses only what the edit changed. Kiwi runs
    outside the GIL, so this costs the serving process nothing it was waiting for."""

    def run() -> None:
        analyse = kiwi_analyser()
        for text in texts:
            analyse(plain_text(text))

    thread = threading.Thread(target=run, name="kiwi-warm-up", daemon=True)
    thread.start()
    return thread


def kiwi_version() -> str:
    from importlib.metadata import version

    return f"kiwipiepy {version('kiwipiepy')}, model {version('kiwipiepy_model')}"


class CachedAnalyses:
    """Kiwi's analyses of ``texts``, kept on disk per text: after a page edit only the entries
    that changed are analysed (Kiwi is loaded only if there are any).

    ``with CachedAnalyses(cache_dir, texts) as analyse:`` gives an Analyser for ``texts``;
    on leaving, the file holds exactly their analyses (those of removed texts are dropped).
    """

    def __init__(self, cache_dir: Path, texts: Sequence[str]):
        options = json.dumps(KIWI_OPTIONS, sort_keys=True)
        key = hashlib.sha256(f"{kiwi_version()}\0{options}".encode()).hexdigest()[:20]
        self.path = Path(cache_dir) / f"analyses-{key}.json"
        self.texts = texts
        self.stored: dict[str, list] = {}  # the file's rows when entered
        self.signature: tuple[int, int, int] | None = None  # the file's, when entered
        self.known: dict[str, list] = {}
        self.analysed = 0  # texts Kiwi analysed in this build

    @staticmethod
    def text_key(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def __enter__(self) -> Analyser:
        self.signature, self.stored = _analyses_read(self.path)
        self.known = dict(self.stored)
        missing = [t for t in dict.fromkeys(self.texts) if self.text_key(t) not in self.known]
        if missing:
            kiwi = kiwi_analyser()
            for text in missing:
                self.known[self.text_key(text)] = [list(m) for m in kiwi(text)]
            self.analysed = len(missing)

        def analyse(text: str) -> list[Morpheme]:
            return [tuple(m) for m in self.known[self.text_key(text)]]

        return analyse

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            keep = {self.text_key(t) for t in self.texts}
            rows = {k: v for k, v in sorted(self.known.items()) if k in keep}
            for old in self.path.parent.glob("analyses-*.json"):
                if old != self.path:
                    old.unlink()
            if rows != self.stored:
                write_json(self.path, rows, ensure_ascii=False)
                _analyses_seen[self.path] = (_file_signature(self.path), rows)
            elif _file_signature(self.path) == self.signature:  # no new text: not written
                _analyses_seen[self.path] = (self.signature, rows)
            else:  # another process replaced the file meanwhile: read it next time
                _analyses_seen.pop(self.path, None)


# Each analyses file as this process last read or wrote it, with its signature then: a serve
# rebuild reads the file again only if another process has replaced it since (about 1 MB of
# JSON, a tenth of a rebuild).
_analyses_seen: dict[Path, tuple[tuple[int, int, int] | None, dict[str, list]]] = {}


def _file_signature(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def _analyses_read(path: Path) -> tuple[tuple[int, int, int] | None, dict[str, list]]:
    """The analyses file's signature and rows ({} when absent or damaged: then Kiwi runs
    again)."""
    seen = _analyses_seen.get(path)
    signature = _file_signature(path)
    if seen is not None and signature is not None and seen[0] == signature:
        return signature, seen[1]
    known = read_json(path)
    return signature, known if isinstance(known, dict) else {}


def default_language_texts(
    entries: Iterable[dict],
    prefixes: dict[str, str],
    filled: Mapping[str, Sequence[Sequence[tuple[str, bool]]]] | None = None,
) -> list[str]:
    """The title and text of the default language's search entries, for Kiwi. Numbers are
    no words to stem: they go.

    ``filled``: page URL → the numbers of each of its sections (:func:`section_numbers`).
    Material makes one entry per section, the page's own first; each entry loses the numbers
    filled into its section (:func:`without_numbers`)."""
    others = tuple(prefix for prefix in prefixes.values() if prefix)
    kept = [e for e in entries if not e.get("location", "").startswith(others)]
    texts = [f"{e['title']}\n{e['text']}" for e in kept]
    for url, sections in (filled or {}).items():
        at = [i for i, e in enumerate(kept) if e.get("location", "").split("#", 1)[0] == url]
        if len(at) != len(sections):  # not the sections counted: leave the page as it is
            continue
        for i, numbers in zip(at, sections, strict=True):
            texts[i] = without_numbers(texts[i], numbers)
    return texts


_HEADING_LINE = re.compile(r"#{1,6}\s")
_FOOTNOTE = re.compile(r"\[\^[^\]]+\]:")
_NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def _number_pattern(filled: Iterable[str]) -> re.Pattern:
    """A printed number of ``filled`` (longest first) or any other run of digits, never a
    part of a longer number."""
    alternatives = [re.escape(t) for t in sorted(set(filled), key=len, reverse=True) if t]
    return re.compile(rf"(?<![0-9.])(?:{'|'.join([*alternatives, _NUMBER])})(?![0-9]|\.[0-9])")


def section_numbers(markdown: str, numbers: Mapping[str, str]) -> list[list[tuple[str, bool]]]:
    """Every number of a page's Markdown, by section (the text before the first heading,
    then one per heading, as Material's search splits the page): ``(text, True)`` for each
    ``{{ae:…}}``, printed, and ``(text, False)`` for a number written out. A footnote's
    numbers go to the last section (the footnotes end the page). Kept per (Markdown, the
    numbers it prints): a serve rebuild asks again for every page, of which an edit changed
    one."""
    from attention_explained.sitebuild._internal.markdown import PLACEHOLDER

    names = dict.fromkeys(m.group(1) for m in PLACEHOLDER.finditer(markdown))
    printed = tuple((name, str(numbers.get(name, ""))) for name in names)
    return [list(section) for section in _section_numbers(markdown, printed)]


@functools.lru_cache(maxsize=256)
def _section_numbers(
    markdown: str, printed: tuple[tuple[str, str], ...]
) -> tuple[tuple[tuple[str, bool], ...], ...]:
    from attention_explained.sitebuild._internal.markdown import PLACEHOLDER

    numbers = dict(printed)
    pattern = _number_pattern(numbers[m.group(1)] for m in PLACEHOLDER.finditer(markdown))
    sections: list[list[tuple[str, bool]]] = [[]]
    footnotes: list[tuple[str, bool]] = []
    fence, in_footnote = "", False
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = "" if fence == marker else fence or marker
        if not fence and _HEADING_LINE.match(line):
            sections.append([])
        if _FOOTNOTE.match(line):
            in_footnote = True
        elif line.strip() and not line.startswith((" ", "\t")):
            in_footnote = False
        target = footnotes if in_footnote else sections[-1]
        position = 0
        for m in [*PLACEHOLDER.finditer(line), None]:
            written = line[position : m.start() if m else len(line)]
            target.extend((n.group(0), False) for n in pattern.finditer(written))
            if m is not None:
                target.append((str(numbers.get(m.group(1), "")), True))
                position = m.end()
    sections[-1].extend(footnotes)
    return tuple(tuple(section) for section in sections)


def without_numbers(text: str, numbers: Sequence[tuple[str, bool]]) -> str:
    """``text`` without the numbers its section's Markdown printed (``numbers``, from
    :func:`section_numbers`): the numbers in ``text`` are matched in order with the
    section's, printed and written out (the longest common subsequence), and those matched
    with a printed one go. Kept per (text, numbers): a serve rebuild asks again for every
    page, of which an edit changed one."""
    return _without_numbers(text, tuple((str(t), bool(p)) for t, p in numbers))


@functools.lru_cache(maxsize=1024)
def _without_numbers(text: str, numbers: tuple[tuple[str, bool], ...]) -> str:
    pattern = _number_pattern(t for t, printed in numbers if printed)
    found = list(pattern.finditer(text))
    a, b = [t for t, _ in numbers], [m.group(0) for m in found]
    # lengths[i][j]: the longest common subsequence of a[i:] and b[j:]
    lengths = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            lengths[i][j] = (
                lengths[i + 1][j + 1] + 1
                if a[i] == b[j]
                else max(lengths[i + 1][j], lengths[i][j + 1])
            )
    remove, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j] and lengths[i][j] == lengths[i + 1][j + 1] + 1:
            if numbers[i][1]:
                remove.append(found[j])
            i, j = i + 1, j + 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            i += 1
        else:
            j += 1
    out, position = [], 0
    for m in remove:
        out.append(text[position : m.start()])
        position = m.end()
    return "".join(out) + text[position:]


def write_search_data(
    site_dir: Path,
    cache_dir: Path,
    prefixes: dict[str, str],
    korean: str,
    texts: Sequence[str],
    terms: Sequence[Term],
    separator: str = DEFAULT_SEPARATOR,
) -> list[Path]:
    """Write search/<lang>.json for every language; Kiwi runs only when the Korean text,
    the analyser or this module changed (the lexicon is cached under cache_dir), and then
    only on the texts it has not analysed before (CachedAnalyses)."""
    plain = [plain_text(t) for t in texts]
    key = hashlib.sha256(
        json.dumps([plain, separator, kiwi_version(), Path(__file__).read_text("utf-8")]).encode()
    ).hexdigest()[:20]
    cached = cache_dir / f"lexicon-{key}.json"
    lex = read_json(cached)  # None if absent or damaged (then it is made again)
    if not isinstance(lex, dict):
        with CachedAnalyses(cache_dir, plain) as analyse:
            lex = lexicon(plain, analyse, separator)
        for old in cache_dir.glob("lexicon-*.json"):
            old.unlink()
        write_json(cached, lex, ensure_ascii=False)
    lex = dict(lex)
    lex["stems"] = sorted(set(lex["stems"]) | synonym_stems(terms))
    written = []
    for lang in prefixes:
        if lang == korean:
            data = language_data(lang, prefixes, lex, synonyms(terms))
        else:
            data = language_data(lang, prefixes)
        path = Path(site_dir) / "search" / f"{lang}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), "utf-8")
        written.append(path)
    return written
