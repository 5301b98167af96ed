/*
 * Search in the reader's language: a thin wrapper around Material's own search worker.
 *
 * overrides/main.html points Material at this file instead of its worker, with three
 * parameters: `lang` (the page's language), `material` (Material's worker, which this file
 * loads with importScripts, so all searching stays Material's) and `data` (search/<lang>.json,
 * written at build time by attention_explained/sitebuild/search.py). Both are loaded with the
 * first message, which Material sends once the reader has opened search.
 *
 * It changes two messages on their way in and nothing else:
 * - SETUP (the whole bilingual index): keeps only the documents of this page's language, so
 *   results come from the reader's language and their scores from its pages alone;
 * - QUERY: adds the term for each glossary synonym that stands in the query as whole words
 *   (폭이 adds 너비, 폭발 does not), and reduces each Korean word to the stem the build found
 *   for it (야코비안을 -> 야코비안, 포화된 -> 포화), which Material then searches as a prefix
 *   (야코비안*), so every inflected form on a page matches.
 * search.py's normalise_query is this transform's Python twin (tests/test_search_data.py).
 */
(function () {
  "use strict"

  var SETUP = 0
  var QUERY = 2
  var params = new URL(self.location.href).searchParams
  var material = params.get("material")
  var data = params.get("data")
  var HANGUL = /[\uac00-\ud7a3]/
  var SYNTAX = /[+\-*~^:"]/

  /* Build-time data for this language, or nothing (then queries pass through unchanged).
     Fetched, like Material's worker, with the first message: Material creates this worker
     on every page, but sends it nothing until the reader opens search (overrides/main.html). */
  var ready = null
  function load() {
    if (ready)
      return ready
    ready = (data ? fetch(new URL(data, self.location.href)) : Promise.reject(null))
      .then(function (response) { return response.ok ? response.json() : null })
      .catch(function () { return null })
      .then(function (json) { return prepare(json) })
    importScripts(new URL(material, self.location.href).href)
    return ready
  }

  function prepare(json) {
    var lex = json || {}
    var stems = new Set(lex.stems || [])
    var endings = new Set(lex.endings || [])
    var longest = 0
    stems.forEach(function (stem) { longest = Math.max(longest, stem.length) })
    var synonyms = (lex.synonyms || []).map(function (pair) {
      return { variant: squash(pair[0]), term: pair[1] }
    }).sort(function (a, b) { return b.variant.length - a.variant.length })
    return {
      prefix: lex.prefix || "",
      others: lex.others || [],
      forms: lex.forms || {},
      stems: stems,
      endings: endings,
      longest: longest,
      synonyms: synonyms
    }
  }

  function squash(text) {
    return text.toLowerCase().replace(/\s+/g, "")
  }

  /* Does a document location belong to this page's language? */
  function ours(lex, location) {
    if (lex.prefix && location.indexOf(lex.prefix) !== 0)
      return false
    return !lex.others.some(function (other) {
      return other.length > lex.prefix.length && location.indexOf(other) === 0
    })
  }

  /* The stem of one Korean word: a form the build analysed, else the longest known stem
     followed by an ending the build saw after stems; the word itself when neither fits. */
  function stem(lex, word) {
    var lower = word.toLowerCase()
    if (Object.prototype.hasOwnProperty.call(lex.forms, lower))
      return lex.forms[lower]
    for (var n = Math.min(lex.longest, lower.length); n > 0; n--) {
      var head = lower.slice(0, n)
      var rest = lower.slice(n)
      if (lex.stems.has(head) && (rest === "" || lex.endings.has(rest)))
        return head
    }
    return word
  }

  function transform(lex, query) {
    var words = query.split(/\s+/).filter(Boolean).map(function (word) {
      return HANGUL.test(word) && !SYNTAX.test(word) ? stem(lex, word) : word
    })
    var plain = queryWords(query)
    var added = []
    lex.synonyms.forEach(function (pair) {
      if (added.indexOf(pair.term) < 0 && matches(lex, pair.variant, plain))
        added.push(pair.term)
    })
    return words.concat(added.filter(function (term) {
      return words.indexOf(term) < 0
    })).join(" ")
  }

  /* The query's words as synonyms see them: lower case, without quotes, a leading + or a
     trailing *; a word Lunr must not match (-폭) is null and ends every run. */
  function queryWords(query) {
    return query.split(/\s+/).filter(Boolean).map(function (word) {
      word = word.toLowerCase().replace(/"/g, "")
      return word.charAt(0) === "-" ? null : word.replace(/^\+|\*$/g, "")
    })
  }

  /* Does a synonym (squashed) stand in the query as whole words? Where a run of consecutive
     words, spaces dropped, is the variant, alone or followed by an ending the build saw
     after stems (폭, 폭이, 헤드하나의차원); never inside another word (폭발 is not 폭). */
  function matches(lex, variant, plain) {
    for (var i = 0; i < plain.length; i++) {
      var joined = ""
      for (var j = i; j < plain.length && plain[j] !== null; j++) {
        joined += plain[j]
        if (joined === variant || (joined.indexOf(variant) === 0 &&
            lex.endings.has(joined.slice(variant.length))))
          return true
        if (variant.indexOf(joined) !== 0)
          break
      }
    }
    return false
  }

  /* Material's message listeners, registered by its worker when load() imports it. */
  var listeners = []
  var addEventListener = self.addEventListener
  self.addEventListener = function (type, listener, options) {
    if (type !== "message")
      return addEventListener.call(self, type, listener, options)
    listeners.push(listener)
  }

  /* Every message waits for the data, then goes to Material's listeners, rewritten. */
  addEventListener.call(self, "message", function (ev) {
    load().then(function (lex) {
      var message = ev.data
      if (message && message.type === SETUP) {
        var docs = message.data.docs.filter(function (doc) { return ours(lex, doc.location) })
        message = { type: SETUP, data: Object.assign({}, message.data, { docs: docs }) }
      } else if (message && message.type === QUERY && typeof message.data === "string") {
        message = { type: QUERY, data: transform(lex, message.data) }
      }
      listeners.forEach(function (listener) { listener.call(self, { data: message }) })
    })
  })
})()
