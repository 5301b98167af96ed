/* Sideways scroll boxes that a keyboard can reach (tests/test_browser_a11y.py, _phone.py).
 *
 * Wide tables, display math, code and notebook output scroll inside their own box instead of
 * widening the page. A box that actually scrolls gets tabindex="0" (arrow keys then scroll
 * it), role="group" and a label in the page's language, so that a keyboard or screen-reader
 * user can reach what is cut off (WCAG 2.1.1; axe's scrollable-region-focusable). A box that
 * fits loses them again, so narrow screens do not get extra tab stops for nothing.
 * Inline math wider than its line is first made such a box (class ae-scrollbox, a11y.css),
 * and a formula glued to its punctuation (span.ae-nobr) that would stick out may wrap again.
 * Runs at load, after MathJax has typeset, when fonts arrive and when the window resizes.
 * Sets <html data-ae-scrollboxes="N"> after each pass (N boxes marked), for the tests.
 */
(function () {
  "use strict";

  var LABELS = {
    ko: {
      table: "표, 옆으로 스크롤",
      math: "수식, 옆으로 스크롤",
      code: "코드, 옆으로 스크롤",
      output: "출력, 옆으로 스크롤",
    },
    en: {
      table: "Table, scrolls sideways",
      math: "Equation, scrolls sideways",
      code: "Code, scrolls sideways",
      output: "Output, scrolls sideways",
    },
  };

  // [selector, kind]: elements that scroll sideways when their content is too wide.
  var BOXES = [
    [".md-typeset .md-typeset__scrollwrap", "table"],
    [".md-typeset div.arithmatex", "math"],
    [".md-typeset span.arithmatex", "math"],
    [".md-typeset pre > code", "code"],
    [".md-typeset .highlight-ipynb", "code"],
    [".md-typeset .jp-OutputArea-output", "output"],
    [".md-typeset .jp-OutputArea-output pre", "output"],
  ];
  var MARK = "data-ae-scrollbox"; // set on the elements this script changed

  function labels() {
    var lang = (document.documentElement.lang || "").toLowerCase();
    if (!LABELS[lang]) {
      throw new Error("a11y.js: LABELS has no entry for language '" + lang + "'; " +
        "see 'Add a language' in CONTRIBUTING.md");
    }
    return LABELS[lang];
  }

  function scrolls(node) {
    var overflow = window.getComputedStyle(node).overflowX;
    // Strict, as axe-core counts it: a box one pixel too narrow still hides something.
    return (overflow === "auto" || overflow === "scroll") && node.scrollWidth > node.clientWidth;
  }

  /** Width of the line box a piece of inline math sits in: its nearest block ancestor's. */
  function lineWidth(node) {
    var block = node.parentElement;
    while (block && window.getComputedStyle(block).display.indexOf("inline") === 0) {
      block = block.parentElement;
    }
    return block ? block.clientWidth : 0;
  }

  function release(node) {
    node.classList.remove("ae-scrollbox");
    if (!node.hasAttribute(MARK)) return;
    node.removeAttribute(MARK);
    node.removeAttribute("tabindex");
    node.removeAttribute("role");
    node.removeAttribute("aria-label");
    node.classList.remove("ae-scrollbox");
  }

  function mark(node, label) {
    if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
    if (!node.hasAttribute("role")) node.setAttribute("role", "group");
    if (!node.hasAttribute("aria-label")) node.setAttribute("aria-label", label);
    node.setAttribute(MARK, "");
    node.classList.add("ae-scrollbox");
  }

  /* An inline formula glued to its comma, bracket or particle (span.ae-nobr, math.css)
     may wrap again when the glued piece would stick out of its line. */
  function unglueWide() {
    document.querySelectorAll(".md-typeset .ae-nobr").forEach(function (node) {
      node.classList.remove("ae-wide");
      var block = node.parentElement;
      while (block && window.getComputedStyle(block).display.indexOf("inline") === 0) {
        block = block.parentElement;
      }
      if (!block) return;
      var edge = block.getBoundingClientRect().right - parseFloat(window.getComputedStyle(block).paddingRight);
      var rects = node.getClientRects();
      for (var i = 0; i < rects.length; i += 1) {
        if (rects[i].right > edge + 1) {
          node.classList.add("ae-wide");
          return;
        }
      }
    });
  }

  function pass() {
    var text = labels();
    var count = 0;
    unglueWide();
    BOXES.forEach(function (entry) {
      document.querySelectorAll(entry[0]).forEach(function (node) {
        if (entry[0].indexOf("span.arithmatex") >= 0) {
          // Inline math: a box of its own only when the formula is wider than its line.
          var wide = node.classList.contains("ae-scrollbox") ? node.scrollWidth > node.clientWidth
            : node.getBoundingClientRect().width > lineWidth(node);
          if (wide && !node.hasAttribute(MARK)) node.classList.add("ae-scrollbox");
          if (!wide) {
            release(node);
            return;
          }
        }
        if (scrolls(node)) {
          mark(node, text[entry[1]]);
          count += 1;
        } else {
          release(node);
        }
      });
    });
    document.documentElement.setAttribute("data-ae-scrollboxes", String(count));
  }

  var pending = null;
  function schedule() {
    if (pending !== null) return;
    pending = window.requestAnimationFrame(function () {
      pending = null;
      pass();
    });
  }

  function start() {
    pass();
    window.addEventListener("resize", schedule);
    window.addEventListener("load", schedule);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(schedule);
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) mj.startup.promise.then(pass);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
