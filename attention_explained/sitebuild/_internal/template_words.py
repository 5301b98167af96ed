"""The words overrides/main.html shows, one entry per language of settings.LANGS.

The plugin puts the page's language's entry in ``page.meta.ae_words`` (``Build.template_words``);
``python -m attention_explained lint --pages`` reads this file with the template overrides.
"""

from __future__ import annotations

TEMPLATE_WORDS = {
    "ko": {
        "download_notebook": "Jupyter 노트북(.ipynb) 내려받기",
        "open_in_colab": "Colab에서 열기 (이 커밋의 패키지를 설치합니다)",
    },
    "en": {
        "download_notebook": "Download the notebook (.ipynb)",
        "open_in_colab": "Open in Colab (installs the package at this commit)",
    },
}
