"""What each page computes and claims: one module per page, plus ``shared`` and ``figures``.

``content/<page>.py`` holds everything ``docs/<page>.md`` and ``docs/<page>.en.md`` quote
(``{{ae:<name>}}``) and claim (``<!-- claim: <name> -->``); a notebook's module is
``notebook_<name>.py``. Numbers that several pages quote live in ``shared.py``; the checks of
what the figures' alt texts state live in ``figures.py``, or in the page module when only that
page shows the figure (each figure module lists its own in ``ALT_CLAIMS``). ``data.py`` runs
the experiments that figures and pages share, once per process.

Adding a number and a claim to a page touches the page's two Markdown files and its module::

    from attention_explained.content.registry import Number, claim, numbers

    @numbers
    def _my_numbers(out: dict[str, str]) -> None:
        out["saturation.my_ratio"] = Number(0.123, ".2f")  # prose: {{ae:saturation.my_ratio}}

    @claim(
        "saturation.my_ratio_small",  # prose: <!-- claim: saturation.my_ratio_small -->
        statement="the ratio is below 0.5",
        counterexample={"saturation.my_ratio": 0.9},  # numbers that make the check fail
    )
    def _my_ratio_small(v) -> bool:
        return v["saturation.my_ratio"] < 0.5

Names are ``<page>.<what>``. ``Number`` keeps the unrounded value for the claims; a claim may
read any page's numbers. The build fails on a marker whose claim is unknown or false, and the
tests feed each claim its counterexample. Editing a claim's check re-judges the claims over the
cached numbers and reruns no experiment (the numbers' cache key leaves the ``@claim``
functions out); editing a number's code reruns what it needs. A new page also adds its module
to :func:`pages.load_pages` (``content/pages.py``: no page module imports it, since a page
module imports only the registry, a leaf, so there is no import circle).

This package imports nothing on import, so figures can import ``content.data`` cheaply.
"""
