"""A Korean particle right after a number takes the form the number's reading asks for.

The numbers are filled in at build time, so the author cannot know how one ends: "0.821이"
but "0.82가", "30은" but "1024는". After a ``{{ae:…}}`` placeholder, on a Korean page, the
author writes either form of a particle pair and the build writes the right one
(``markdown_numbers.fill_placeholders``):

======  ========================  ==================================
pair    after a final consonant    after a vowel
======  ========================  ==================================
이/가    이                         가
은/는    은                         는
을/를    을                         를
과/와    과                         와
으로/로  으로 (but 로 after ㄹ)      로
======  ========================  ==================================

A particle is one of these directly after the placeholder and not followed by another
Hangul syllable ("{{ae:x}}이고", "{{ae:x}}입니다" and "{{ae:x}}로그" are left alone). How a number
ends when read aloud: its last digit (영 일 이 삼 사 오 육 칠 팔 구), where a last 0 is always
a final consonant (영, 십, 백, 천, 만); a number that ends in anything else has no rule here
and is an error naming it.
"""

from __future__ import annotations

PATTERN = r"(?:(?P<particle>으로|이|가|은|는|을|를|과|와|로)(?![\uac00-\ud7a3]))?"

VOWEL, RIEUL, CONSONANT = "vowel", "ㄹ", "consonant"
# 영 일 이 삼 사 오 육 칠 팔 구; a last 0 is 영, 십, 백, 천 or 만: a final consonant, not ㄹ
LAST_DIGIT = dict(zip("0123456789", (CONSONANT, RIEUL, VOWEL, CONSONANT, VOWEL, VOWEL,
                                     CONSONANT, RIEUL, RIEUL, VOWEL), strict=True))  # fmt: skip
PAIRS = (("이", "가"), ("은", "는"), ("을", "를"), ("과", "와"), ("으로", "로"))
FORMS = {form: pair for pair in PAIRS for form in pair}


class ParticleError(ValueError):
    """A particle after a number whose reading this module cannot tell."""


def final_sound(text: str) -> str:
    """How ``text`` (a printed number) ends when read in Korean: a vowel, ㄹ, or another
    final consonant."""
    last = text.rstrip()[-1:]
    if last in LAST_DIGIT:
        return LAST_DIGIT[last]
    raise ParticleError(f"{text!r} ends in {last!r}, which has no Korean reading here")


def particle_after(text: str, particle: str) -> str:
    """The form of ``particle``'s pair that follows the number printed as ``text``."""
    after_consonant, after_vowel = FORMS[particle]
    sound = final_sound(text)
    if after_consonant == "으로":
        return after_vowel if sound in (VOWEL, RIEUL) else after_consonant
    return after_vowel if sound == VOWEL else after_consonant
