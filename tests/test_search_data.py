"""The build-time search data (attention_explained/sitebuild/search.py), without a browser."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from site_build import sources

from attention_explained.sitebuild import search
from attention_explained.sitebuild._internal.storage import read_json
from attention_explained.sitebuild.terms import Term, load_term_sheet

REPO = Path(__file__).resolve().parents[1]

SITE_SEPARATOR = r'[\s\-,:!=\[\]()"/]+|(?!\b)(?=[A-Z][a-z])|\.(?!\d)|&[lg]t;'


def fake(table: dict[str, list[tuple[str, str]]]):
    """An analyser that knows the morphemes of a few words, laid out where they occur."""

    def analyse(text: str):
        out = []
        for start, end in search.words(text):
            pos = start
            for form, tag in table.get(text[start:end], []):
                length = min(len(form), end - pos)
                out.append((form, tag, pos, length))
                pos += length
        return out

    return analyse


def test_words_follow_the_separator():
    text = "소프트맥스(softmax) 어텐션"
    spans = search.words(text, SITE_SEPARATOR)
    assert [text[a:b] for a, b in spans] == ["소프트맥스", "softmax", "어텐션"]


def test_plain_text_drops_tags_and_math():
    assert search.plain_text(r"<p>값 \(\sqrt{d}\)을 &amp; 더</p>").split() == [
        "값",
        "을",
        "&",
        "더",
    ]


def test_lexicon_splits_stems_from_endings():
    analyse = fake(
        {
            "야코비안은": [("야코비안", "NNG"), ("은", "JX")],
            "포화된": [("포화", "NNG"), ("되", "XSV"), ("ᆫ", "ETM")],
            "나눈다": [("나누", "VV"), ("ᆫ다", "EF")],
        }
    )
    lex = search.lexicon(["야코비안은 포화된 나눈다"], analyse)
    assert lex["stems"] == ["야코비안", "포화"]
    assert lex["endings"] == ["된", "은"]
    assert lex["forms"] == {"나눈다": "나누"}


def test_a_stem_that_is_a_stem_plus_an_ending_is_dropped():
    analyse = fake(
        {
            "소프트맥스는": [("소프트맥스", "NNG"), ("는", "JX")],
            "소프트맥스의": [("소프트맥스의", "NNG")],  # read whole, as Kiwi does
            "값의": [("값", "NNG"), ("의", "JKG")],
        }
    )
    lex = search.lexicon(["소프트맥스는 소프트맥스의 값의"], analyse)
    assert "소프트맥스의" not in lex["stems"]
    assert "소프트맥스" in lex["stems"]


def test_kiwi_finds_the_stems_of_the_issue_examples():
    text = "야코비안은 기울기를 포화되면 스케일링한 값을 차이가 정규화된 계산하지 나눠서"
    lex = search.lexicon([text], search.kiwi_analyser())
    data = search.language_data("ko", {"ko": "", "en": "en/"}, lex)
    # The queries differ from every word of the text: only the stem and ending rules match.
    for query, stem in [
        ("야코비안을", "야코비안"),
        ("기울기가", "기울기"),
        ("포화된", "포화"),
        ("스케일링하지", "스케일링"),
    ]:
        assert search.normalise_query(data, query) == stem, query
    assert search.normalise_query(data, "나눠서") == "나누"


def test_unknown_and_english_words_pass_through():
    data = {"stems": ["포화"], "endings": ["된"], "forms": {}}
    assert search.normalise_query(data, "softmax 포화된 무엇") == "softmax 포화 무엇"
    assert search.normalise_query(data, "+포화된") == "+포화된"  # Lunr syntax is left alone


def test_every_variant_of_the_term_sheet_maps_to_its_term():
    terms = load_term_sheet()
    pairs = search.synonyms(terms)
    expected = [(v, t.term) for t in terms for v in t.variants]
    assert [tuple(p) for p in pairs] == expected and pairs
    data = {"synonyms": pairs}
    for variant, term in expected:
        added = search.normalise_query(data, variant).removeprefix(variant)
        assert term in added, (variant, term, added)


def test_synonyms_match_with_particles_and_without_spaces():
    data = {
        "synonyms": [["그래디언트", "기울기"], ["멀티헤드 어텐션", "멀티 헤드 어텐션"]],
        "endings": ["를", "을"],
    }
    assert search.normalise_query(data, "그래디언트를") == "그래디언트를 기울기"
    assert search.normalise_query(data, "멀티헤드어텐션") == "멀티헤드어텐션 멀티 헤드 어텐션"
    assert search.normalise_query(data, "멀티헤드 어텐션을") == "멀티헤드 어텐션을 멀티 헤드 어텐션"


# (query, variant, does the variant stand in the query as whole words?)
WHOLE_WORDS = [
    ("폭", "폭", True),
    ("폭이", "폭", True),  # a particle the build saw after stems
    ("벡터의 폭", "폭", True),
    ('"폭"', "폭", True),  # Lunr syntax around a word is not part of it
    ("+폭*", "폭", True),
    ("폭발", "폭", False),  # explosion: 폭 begins the word, but 발 is no ending
    ("기울기 폭발", "폭", False),
    ("계층", "층", False),  # 층 ends the word
    ("-폭", "폭", False),  # the reader excludes it
    ("헤드 하나의 차원", "헤드 하나의 차원", True),
    ("헤드하나의차원", "헤드 하나의 차원", True),
    ("헤드 하나의 차원이", "헤드 하나의 차원", True),
    ("헤드 하나의", "헤드 하나의 차원", False),  # part of the variant
    ("헤드 하나의 차원수", "헤드 하나의 차원", False),  # 수 is not among these endings
    ("그 헤드 하나의 차원", "헤드 하나의 차원", True),
    ("헤드 하나 의 차원", "헤드 하나의 차원", True),  # spaces do not matter inside a run
    ("qk-norm", "QK-norm", True),
]


@pytest.mark.parametrize(("query", "variant", "found"), WHOLE_WORDS)
def test_a_synonym_matches_whole_query_words_only(query, variant, found):
    words = search.query_words(query)
    assert search.synonym_matches(variant, words, ["이", "을"]) is found


def test_a_word_that_begins_with_a_variant_adds_no_term():
    """폭 (width) is a variant of 너비; 폭발 (explosion) must not find the width pages."""
    data = {"synonyms": [["폭", "너비"], ["층", "레이어"]], "endings": ["이", "을"]}
    assert search.synonym_terms(data, "폭발") == []
    assert search.synonym_terms(data, "계층 폭주") == []
    assert search.synonym_terms(data, "폭이") == ["너비"]
    assert search.synonym_terms(data, "층을 폭") == ["너비", "레이어"]
    assert search.normalise_query(data, "폭발") == "폭발"


def test_synonym_words_become_stems():
    terms = [Term("gradient", "기울기", "gradient", ("그래디언트", "QK-norm", "헤드당 폭"))]
    assert search.synonym_stems(terms) == {"기울기", "그래디언트", "헤드당", "폭"}


def test_language_data_keeps_each_language_to_its_prefix():
    prefixes = {"ko": "", "en": "en/"}
    assert search.language_data("en", prefixes) == {"lang": "en", "prefix": "en/", "others": [""]}
    assert search.language_data("ko", prefixes)["others"] == ["en/"]
    with pytest.raises(ValueError, match="lang: 'fr'"):
        search.language_data("fr", prefixes)


def test_write_search_data_writes_each_language_and_caches_kiwi(tmp_path, monkeypatch):
    calls = []

    def analyser():
        calls.append(1)
        return fake({"포화된": [("포화", "NNG"), ("되", "XSV"), ("ᆫ", "ETM")]})

    monkeypatch.setattr(search, "kiwi_analyser", analyser)
    monkeypatch.setattr(search, "kiwi_version", lambda: "test")
    terms = [Term("gradient", "기울기", "gradient", ("그래디언트",))]
    args = (tmp_path / "site", tmp_path / "cache", {"ko": "", "en": "en/"}, "ko", ["<p>포화된</p>"])
    search.write_search_data(*args, terms)
    search.write_search_data(*args, terms)
    assert calls == [1], "the second build should reuse the cached lexicon"
    ko = json.loads((tmp_path / "site/search/ko.json").read_text("utf-8"))
    en = json.loads((tmp_path / "site/search/en.json").read_text("utf-8"))
    assert ko["synonyms"] == [["그래디언트", "기울기"]]
    assert {"포화", "기울기", "그래디언트"} <= set(ko["stems"]) and ko["endings"] == ["된"]
    assert en == {"lang": "en", "prefix": "en/", "others": [""]}


def test_lean_kiwi_gives_the_lexicon_of_full_kiwi_on_the_korean_pages():
    """KIWI_OPTIONS leaves out dictionaries to save CPU; the site's lexicon must not notice."""
    from kiwipiepy import Kiwi

    pages = sources("ko")  # Kiwi analyses Korean
    texts = [search.plain_text(p.read_text("utf-8")) for p in pages]
    full = Kiwi()

    def analyse_full(text):
        return [(t.form, t.tag, t.start, t.len) for t in full.tokenize(text)]

    lean = search.lexicon(texts, search.kiwi_analyser())
    assert lean == search.lexicon(texts, analyse_full)
    assert len(lean["stems"]) > 200


def test_after_an_edit_only_the_changed_texts_are_analysed(tmp_path, monkeypatch):
    """The analyses are cached per text: an edited entry costs Kiwi that entry, not the site,
    and the lexicon is the one a full analysis gives."""
    table = {
        "포화된": [("포화", "NNG"), ("되", "XSV"), ("ᆫ", "ETM")],
        "기울기가": [("기울기", "NNG"), ("가", "JKS")],
        "야코비안을": [("야코비안", "NNG"), ("을", "JKO")],
    }
    analysed = []

    def analyser():
        analyse = fake(table)
        return lambda text: analysed.append(text.strip()) or analyse(text)

    monkeypatch.setattr(search, "kiwi_analyser", analyser)
    monkeypatch.setattr(search, "kiwi_version", lambda: "test")
    prefixes, site, cache = {"ko": "", "en": "en/"}, tmp_path / "site", tmp_path / "cache"
    before = ["<p>포화된</p>", "<p>기울기가</p>"]
    search.write_search_data(site, cache, prefixes, "ko", before, [])
    assert sorted(analysed) == ["기울기가", "포화된"]

    analysed.clear()
    after = ["<p>포화된</p>", "<p>야코비안을</p>"]  # one entry edited
    search.write_search_data(site, cache, prefixes, "ko", after, [])
    assert analysed == ["야코비안을"]
    ko = json.loads((site / "search/ko.json").read_text("utf-8"))
    full = search.lexicon([search.plain_text(t) for t in after], fake(table))
    assert ko["stems"] == full["stems"] and ko["endings"] == full["endings"]
    [stored] = cache.glob("analyses-*.json")
    assert len(read_json(stored)) == 2  # 기울기가's analysis is gone


def test_kiwi_reads_the_default_languages_entries_only():
    from attention_explained.languages import prefixes as language_prefixes
    from attention_explained.sitebuild.search import default_language_texts

    prefixes = language_prefixes(("ko", "en"), "ko")
    assert prefixes == {"ko": "", "en": "en/"}
    entries = [
        {"location": "saturation/", "title": "포화", "text": "값은 크다"},
        {"location": "en/saturation/", "title": "Saturation", "text": "English"},
        {"title": "검색", "text": "본문"},  # an entry without a location is the default's
    ]
    assert default_language_texts(entries, prefixes) == ["포화\n값은 크다", "검색\n본문"]


def test_kiwi_reads_a_page_without_its_printed_numbers():
    """The texts Kiwi reads lose the printed numbers; the numbers written out stay, even
    where one prints as a number the text also writes out."""
    from attention_explained.languages import prefixes as language_prefixes
    from attention_explained.sitebuild.search import default_language_texts, section_numbers

    numbers = {"seeds": "2", "n": "30", "range": "0.99–1.00"}
    page = (
        "# 초기화\n\n시드 {{ae:seeds}}개.\n\n## 왜\n\n`axes=[0, 2]`로 두고 시드 {{ae:seeds}}개,"
        " 토큰 {{ae:n}}개짜리, 범위 {{ae:range}}이고 0.99–1.00은 손으로 썼습니다.[^1]\n\n"
        "## 끝\n\n2개는 그대로입니다.\n\n[^1]: 시드 {{ae:seeds}}개의 중앙값.\n"
    )

    def entries(text_of):  # Material's entries of the page: its own, then one per heading
        return [
            {"location": "init/", "title": "", "text": ""},
            {"location": "init/#a", "title": "초기화", "text": f"시드 {text_of('seeds')}개."},
            {
                "location": "init/#b",
                "title": "왜",
                "text": f"axes=[0, 2]로 두고 시드 {text_of('seeds')}개, 토큰 {text_of('n')}개짜리,"
                f" 범위 {text_of('range')}이고 0.99–1.00은 손으로 썼습니다.1",
            },
            {
                "location": "init/#c",
                "title": "끝",
                "text": f"2개는 그대로입니다. 시드 {text_of('seeds')}개의 중앙값.",
            },
        ]

    prefixes = language_prefixes(("ko", "en"), "ko")
    filled = {"init/": section_numbers(page, numbers)}
    assert default_language_texts(entries(numbers.get), prefixes, filled) == [
        "\n",
        "초기화\n시드 개.",
        "왜\naxes=[0, 2]로 두고 시드 개, 토큰 개짜리, 범위 이고 0.99–1.00은 손으로 썼습니다.1",
        "끝\n2개는 그대로입니다. 시드 개의 중앙값.",
    ]


def test_a_rebuild_reads_again_only_the_entries_an_edit_changed(monkeypatch):
    """`mkdocs serve`: the lexicon of every Korean entry is made again after each edit; the
    words of an unchanged entry are not read again, and the result is what the texts say."""
    table = {
        "포화된": [("포화", "NNG"), ("되", "XSV"), ("ᆫ", "ETM")],
        "기울기가": [("기울기", "NNG"), ("가", "JKS")],
        "야코비안을": [("야코비안", "NNG"), ("을", "JKO")],
    }
    texts = {t: fake(table)(t) for t in ("포화된 기울기가", "야코비안을", "포화된")}
    read = []
    words = search.words
    monkeypatch.setattr(search, "words", lambda text, *a: read.append(text) or words(text, *a))
    # a separator of this run's own: nothing analysed before (another test, or this one
    # run again in the same process) is kept for it
    sep = rf"[\s\-]+|@{uuid.uuid4().hex}@"
    first = search.lexicon(["포화된 기울기가", "야코비안을"], texts.__getitem__, sep)
    assert sorted(read) == ["야코비안을", "포화된 기울기가"]
    assert first["stems"] == ["기울기", "야코비안", "포화"]
    read.clear()
    second = search.lexicon(["포화된 기울기가", "포화된"], texts.__getitem__, sep)  # one edited
    assert read == ["포화된"]
    assert second == {"stems": ["기울기", "포화"], "endings": ["가", "된"], "forms": {}}


@pytest.fixture
def analyses_reads(monkeypatch) -> list[str]:
    """A fake Kiwi that knows 포화된; the names of the files search.py parses, in order."""
    table = {"포화된": [("포화", "NNG"), ("되", "XSV"), ("ᆫ", "ETM")]}
    monkeypatch.setattr(search, "kiwi_analyser", lambda: fake(table))
    monkeypatch.setattr(search, "kiwi_version", lambda: "test")
    reads = []
    read_json = search.read_json
    monkeypatch.setattr(search, "read_json", lambda p: reads.append(p.name) or read_json(p))
    return reads


def test_a_rebuild_reads_the_analyses_file_again_only_when_another_process_replaced_it(
    tmp_path, analyses_reads
):
    """The analyses file (about 1 MB) is kept as this process last wrote it: a serve rebuild
    after an edit does not parse it again, nor write it when no text is new; a file another
    process wrote since is read."""
    reads = analyses_reads
    site, cache = tmp_path / "site", tmp_path / "cache"

    def build(*texts):  # a build of these Korean entries (each list: a lexicon not cached)
        reads.clear()
        search.write_search_data(site, cache, {"ko": "", "en": "en/"}, "ko", list(texts), [])
        [stored] = cache.glob("analyses-*.json")
        return stored, (stored.stat().st_ino, stored.stat().st_mtime_ns)

    stored, _ = build("<p>포화된</p>")
    stored, written = build("<p>포화된</p>", "<p>포화된 값</p>")  # an edit: one text new
    assert stored.name not in reads, "the analyses file was parsed again"
    _, again = build("<p>포화된 값</p>", "<p>포화된</p>")  # no text new
    assert stored.name not in reads, "the analyses file was parsed again"
    assert again == written, "an unchanged analyses file was written again"
    # another process replaces it (an atomic write: a new file): this one reads it
    from attention_explained.sitebuild._internal.storage import write_json

    write_json(stored, {**read_json(stored), "other": []}, ensure_ascii=False)
    build("<p>포화된</p>", "<p>포화된 값</p>")
    assert stored.name in reads


def test_an_analyses_file_replaced_during_a_build_is_read_by_the_next(tmp_path, analyses_reads):
    """Another process may replace the file while this build holds its rows: this build
    then keeps no memory of it, and the next one reads the file."""
    from attention_explained.sitebuild._internal.storage import write_json

    reads = analyses_reads
    texts = ["포화된"]
    with search.CachedAnalyses(tmp_path, texts) as analyse:  # writes the file
        analyse("포화된")
    [stored] = tmp_path.glob("analyses-*.json")
    with search.CachedAnalyses(tmp_path, texts) as analyse:  # no new text: nothing written
        write_json(stored, {**read_json(stored), "other": []}, ensure_ascii=False)
    reads.clear()
    with search.CachedAnalyses(tmp_path, texts):
        pass
    assert stored.name in reads, "a file another process wrote was not read"
