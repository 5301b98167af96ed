/* Exercises that check the reader's answer (attention_explained/sitebuild/_internal/answers.py).

   The build leaves, after a numeric exercise's question, an empty
   <div class="ae-answer" data-answer="7.11" data-tolerance="0.01" [data-label="…"]>: the
   expected answer is the number the folded solution prints, the tolerance is absolute. This
   script turns each into a labelled input box, checks a typed answer when the reader presses
   Enter or the button, and says right or wrong in the page's language through a polite live
   region. The folded solution stays as it is. The last answer typed is kept in localStorage
   (when the browser allows it), per page and box, and checked again on the next visit.

   A typed answer is read as answers.py's parse_answer reads it (tests/test_browser_answers.py
   compares the two on every printed answer): NFKC-folded (full-width digits, superscripts),
   spaces removed, U+2212 as a minus, a leading ≈, ~ or 약 dropped; then a decimal (0.5, .5),
   a fraction (1/2, 64/9) or a power of ten (2e-42, 2×10^-42); a comma only groups thousands. */
(function () {
  "use strict"

  var TEXT = {
    ko: {
      answer: "답",
      check: "확인",
      tolerance: "허용 오차",
      right: "맞았습니다. 풀이의 값은 {expected}입니다.",
      wrong: "아닙니다. 입력한 값 {value}: 허용 오차(±{tolerance}) 밖입니다. 다시 해 보거나 풀이를 열어 보세요.",
      empty: "답을 입력하세요.",
      comma: "소수점은 쉼표가 아니라 마침표로 쓰세요(예: 0.5). 쉼표는 천 단위 구분에만 씁니다.",
      exact: "정확한 값",
      wrongExact: "아닙니다. 입력한 값: {value}. 다시 해 보거나 풀이를 열어 보세요.",
      malformed: "숫자로 읽을 수 없습니다. 0.5, .5, 1/2, 2e-3, √2처럼 쓰세요.",
    },
    en: {
      answer: "Your answer",
      check: "Check",
      tolerance: "tolerance",
      right: "Right. The solution's value is {expected}.",
      wrong: "Not quite: {value} is outside the tolerance of ±{tolerance}. Try again, or open the solution.",
      empty: "Type an answer first.",
      comma: "Write decimals with a point (0.5, not 0,5); a comma only groups thousands.",
      exact: "exact value",
      wrongExact: "Not quite: {value} is not the answer. Try again, or open the solution.",
      malformed: "That is not a number. Write it like 0.5, .5, 1/2, 2e-3 or √2.",
    },
  }

  var DECIMAL = "[+-]?(?:\\d+\\.?\\d*|\\.\\d+)"
  var PLAIN = new RegExp("^" + DECIMAL + "$")
  var FRACTION = new RegExp("^(" + DECIMAL + ")/(" + DECIMAL + ")$")
  var EXPONENT = new RegExp("^(" + DECIMAL + ")?(?:[eE]|[×xX*·]10\\^?)([+-]?\\d+)$")
  var POWER_OF_TEN = /^10\^?([+-]?\d+)$/
  var SQUARE_ROOT = new RegExp("^(?:√|sqrt)(?:(" + DECIMAL + ")|\\((" + DECIMAL + ")\\))$")  // √64
  var THOUSANDS = /^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d*)?$/  // never 0,xxx
  var APPROXIMATELY = ["≈", "~", "약"]

  function normalise(text) {
    var s = text.normalize("NFKC").replace(/\u2212/g, "-").replace(/\s+/g, "")
    APPROXIMATELY.forEach(function (prefix) {
      if (s.indexOf(prefix) === 0) s = s.slice(prefix.length)
    })
    return s
  }

  /* The number `text` states, or why it states none: "empty", "comma" or "malformed". */
  function parseAnswer(text) {
    var s = normalise(text), found
    if (!s) return "empty"
    if (s.indexOf(",") >= 0) {
      if (!THOUSANDS.test(s)) return "comma"
      s = s.replace(/,/g, "")
    }
    if (PLAIN.test(s)) return parseFloat(s)
    if ((found = FRACTION.exec(s))) {
      var bottom = parseFloat(found[2])
      return bottom ? parseFloat(found[1]) / bottom : "malformed"
    }
    if ((found = EXPONENT.exec(s))) {
      var mantissa = found[1] ? parseFloat(found[1]) : 1
      return mantissa * Math.pow(10, parseInt(found[2], 10))
    }
    if ((found = POWER_OF_TEN.exec(s))) return Math.pow(10, parseInt(found[1], 10))
    if ((found = SQUARE_ROOT.exec(s))) {
      var radicand = parseFloat(found[1] || found[2])
      return radicand >= 0 ? Math.sqrt(radicand) : "malformed"
    }
    return "malformed"
  }

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key] })
  }

  function storageKey(index) {
    return "ae-answer:" + location.pathname + "#" + index
  }

  function remember(index, value) {
    try { localStorage.setItem(storageKey(index), value) } catch (e) { /* private mode */ }
  }

  function recall(index) {
    try { return localStorage.getItem(storageKey(index)) } catch (e) { return null }
  }

  function setUp(box, index, text) {
    var expectedText = box.getAttribute("data-answer")
    var expected = parseAnswer(expectedText)
    var tolerance = parseFloat(box.getAttribute("data-tolerance"))
    var toleranceText = box.getAttribute("data-tolerance")
    if (typeof expected !== "number" || !isFinite(tolerance)) return  // the build refuses these

    var id = "ae-answer-" + index
    var form = document.createElement("form")
    form.className = "ae-answer__form"
    form.noValidate = true
    var label = document.createElement("label")
    label.htmlFor = id
    var exact = tolerance === 0  // an exact answer: no "±0"
    label.textContent = (box.getAttribute("data-label") || text.answer) +
      (exact ? " (" + text.exact + ")" : " (" + text.tolerance + " ±" + toleranceText + ")")
    var input = document.createElement("input")
    input.type = "text"
    input.id = id
    input.className = "ae-answer__input"
    input.autocomplete = "off"
    input.spellcheck = false
    input.setAttribute("autocapitalize", "off")
    input.setAttribute("aria-describedby", id + "-result")
    var button = document.createElement("button")
    button.type = "submit"
    button.className = "md-button ae-answer__button"
    button.textContent = text.check
    var result = document.createElement("p")
    result.id = id + "-result"
    result.className = "ae-answer__result"
    result.setAttribute("role", "status")
    result.setAttribute("aria-live", "polite")
    form.append(label, input, button, result)
    box.append(form)

    function check(announce) {
      var value = parseAnswer(input.value)
      var message, state
      if (typeof value !== "number" || !isFinite(value)) {
        state = "invalid"
        message = text[typeof value === "string" ? value : "malformed"]
      } else if (Math.abs(value - expected) <= tolerance * (1 + 1e-9)) {
        state = "right"
        message = say(text.right, { expected: expectedText })
      } else {
        state = "wrong"
        message = say(exact ? text.wrongExact : text.wrong,
          { value: input.value.trim(), tolerance: toleranceText })
      }
      box.setAttribute("data-state", state)
      input.setAttribute("aria-invalid", state === "right" ? "false" : "true")
      result.textContent = announce ? "" : message
      if (announce)  // a fresh text node each time, so the same verdict is announced again
        window.setTimeout(function () { result.textContent = message }, 50)
      if (state !== "invalid") remember(index, input.value)
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault()
      check(true)
    })
    var kept = recall(index)
    if (kept) {
      input.value = kept
      check(false)
    }
  }

  function start() {
    var lang = (document.documentElement.lang || "").toLowerCase()
    var text = TEXT[lang]
    if (!text)
      throw new Error("answers.js: TEXT has no entry for language '" + lang + "'; see 'Add a language' in CONTRIBUTING.md")
    // The build leaves an empty, hidden <span> at the end of the question's paragraph (a <div>
    // may not stand in a <p>); the box is a <div> right after that paragraph.
    var marks = document.querySelectorAll("span.ae-answer[data-answer]")
    for (var m = 0; m < marks.length; m++) {
      var mark = marks[m]
      var box = document.createElement("div")
      for (var a = 0; a < mark.attributes.length; a++) {
        var attribute = mark.attributes[a]
        if (attribute.name !== "hidden") box.setAttribute(attribute.name, attribute.value)
      }
      var paragraph = mark.closest("p")
      if (paragraph) paragraph.after(box)
      else mark.after(box)
      mark.remove()
    }
    var boxes = document.querySelectorAll("div.ae-answer[data-answer]")
    for (var i = 0; i < boxes.length; i++) {
      if (!boxes[i].firstChild) setUp(boxes[i], i + 1, text)
    }
  }

  /* Tests compare this reading with answers.py's. */
  window.aeParseAnswer = parseAnswer
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
  else start()
})()
