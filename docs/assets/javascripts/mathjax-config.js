// MathJax 3 is served from this site (assets/mathjax/), never from a CDN.
// Arithmatex wraps page math in .arithmatex as \( \) and \[ \]; notebook Markdown cells
// (.jp-MarkdownOutput) keep Jupyter's $ $ and $$ $$. Everything else is left alone.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"], ["$", "$"]],
    displayMath: [["\\[", "\\]"], ["$$", "$$"]],
    processEscapes: true,
    processEnvironments: true,
  },
  options: {
    // ".+" rather than Material's ".*|": the class-less <p> inside a notebook's
    // .jp-MarkdownOutput must be processed too.
    ignoreHtmlClass: ".+",
    processHtmlClass: "arithmatex|jp-MarkdownOutput",
    enableMenu: false,
  },
};
