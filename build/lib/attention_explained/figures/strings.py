"""Strings that several figures draw, written once, and the lookup every figure uses.

Each figure module owns its strings: ``STRINGS`` (key → language → text, with its ``alt``),
``SHARED_STRINGS`` (its name for a string → the name in :data:`SHARED` below) and
``ALT_CLAIMS`` (the claims its alt text states, checked in ``content/``). All three
are plain literals, so the build reads them from the file without importing matplotlib, and a
figure's cache key covers its own module plus exactly the shared strings it names, or that
the helper modules it imports (``sweep_plots``, ``training_plots``) name for what they draw.

Korean follows the term sheet in CONTRIBUTING.md (어텐션, 소프트맥스, 기울기, 헤드 차원, 밸류,
균등분포, QK 정규화, 내트 …).

Math is matplotlib mathtext (``$d_k$``, ``$W^Q$``, bold vectors ``$\\mathbf{q}$``). A line
that mixes Hangul with ``$…$`` must be drawn with ``style.mixed_font(label)``, and its minus
signs go inside ``$…$``. Strings formatted with fields double the braces of their math.
"""

from __future__ import annotations

from importlib import import_module

SHARED: dict[str, dict[str, str]] = {
    "none": {"ko": "스케일링 없음", "en": "no scaling"},
    "sqrt_d": {"ko": "÷√dₖ", "en": "÷√dₖ"},
    "unit_3sqrt_d": {"ko": "÷(3√dₖ), 분산 1", "en": "÷(3√dₖ), unit variance"},
    "dim": {"ko": "헤드 차원 $d_k$", "en": "head dimension $d_k$"},
    "seeds": {"ko": "시드 {n}개 평균 ± 표준편차", "en": "mean ± std over {n} seeds"},
    "sqrt_dk_math": {"ko": "$\\div\\sqrt{d_k}$", "en": "$\\div\\sqrt{d_k}$"},
    "qknorm": {"ko": "QK 정규화 (g 학습)", "en": "QK-norm (learned g)"},
    "panel_dk": {"ko": "$d_k = {d}$", "en": "$d_k = {d}$"},
    "step": {"ko": "학습 스텝", "en": "training step"},
    "band_sgd": {
        "ko": "시드 {n}개의 중앙값, 띠: 최소–최대",
        "en": "median of {n} seeds, band: min–max",
    },
    "sqrt_dk": {"ko": "÷√dₖ", "en": "÷√dₖ"},
    "band_adamw": {
        "ko": "AdamW, 시드 {n}개의 중앙값, 띠: 최소–최대",
        "en": "AdamW, median of {n} seeds, band: min–max",
    },
    "uniform_log": {"ko": "균등분포: log {n}", "en": "uniform: log {n}"},
    "row_entropy": {"ko": "행 엔트로피 (내트)", "en": "row entropy (nats)"},
}


def _module(owner: str):
    """A figure's module (``owner`` a figure id), or a helper module (``owner`` its name)."""
    if "." in owner:
        return import_module(owner)
    from attention_explained.figures.registry import check_ids, module_name

    return import_module(module_name(check_ids([owner])[0]))


def text(owner: str, key: str, lang: str, **fields) -> str:
    """The string ``key`` of ``owner`` (its own, or a shared one it names) in ``lang``.

    ``owner`` is a figure id, or ``__name__`` of a helper module that draws shared strings
    for several figures (``sweep_plots``, ``training_plots``). Plain text only: matplotlib's
    mathtext cannot fall back to a Hangul font, so a label that mixes $…$ with Korean would
    lose its Hangul. A key the owner neither has in ``STRINGS`` nor names in
    ``SHARED_STRINGS`` raises, so a cache key can never miss a string that is drawn.
    """
    module = _module(owner)
    entry = getattr(module, "STRINGS", {}).get(key)
    if entry is None:
        shared = getattr(module, "SHARED_STRINGS", {})
        if key not in shared:
            raise KeyError(
                f"{owner!r} has no string {key!r}: add it to STRINGS or SHARED_STRINGS in "
                f"{module.__name__}"
            )
        entry = SHARED[shared[key]]
    return entry[lang].format(**fields) if fields else entry[lang]


def alt_text(figure_id: str, lang: str) -> str:
    return _module(figure_id).STRINGS["alt"][lang]


def alt_claims(figure_id: str) -> tuple[str, ...]:
    """The claims ``figure_id``'s alt text states (none if it states no measured result)."""
    return tuple(getattr(_module(figure_id), "ALT_CLAIMS", ()))


def figure_strings(owner: str) -> dict[str, dict[str, str]]:
    """Every string ``owner`` can draw or describe: its own and the shared ones it names."""
    module = _module(owner)
    named = getattr(module, "SHARED_STRINGS", {})
    return {**{local: SHARED[name] for local, name in named.items()}, **module.STRINGS}


def all_alt_claims() -> dict[str, tuple[str, ...]]:
    """Each figure's ``ALT_CLAIMS`` (figures whose alt text states no measured result: none)."""
    from attention_explained.figures.registry import FIGURE_IDS

    return {figure_id: claims for figure_id in FIGURE_IDS if (claims := alt_claims(figure_id))}
