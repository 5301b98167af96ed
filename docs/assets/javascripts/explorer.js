/* Explorer ("직접 해 보기" / "Explorer"): softmax saturation, live in the browser.
 *
 * Reproduces attention_explained/explorer.py exactly: the same lowbias32 counter hash for
 * the uniform draws (queries A first, then keys B, row-major), logits A·Bᵀ times the scale
 * factor of attention_explained/stats.py, and row means of entropy, max weight and ‖J‖_F
 * of the softmax Jacobian, all in float64. Plain JavaScript, no library, no network except
 * the package's reference values (assets/explorer/reference.json) for the self-check.
 * Does nothing on pages without a `.ae-explorer` container.
 */
(function () {
  "use strict";

  var MAX_DIM = 4096;
  var MAX_LENGTH = 64;
  var MAX_SEED = 4294967295; // 2^32 − 1
  var MAX_ABS_BOUND = 100;
  var SCALES = ["none", "sqrt", "unit"];
  var REFERENCE_URL = "../assets/explorer/reference.json";
  var CACHE_SIZE = 4;
  // Screen readers hear the statistics once the controls have been still this long, not at
  // every slider step (a held arrow key or a drag fires dozens of updates a second).
  var ANNOUNCE_DELAY_MS = 700;

  // The head dimension as the pages' math writes it ($d_k$), in plain text for the widget.
  var DK = "dₖ";

  var STRINGS = {
    ko: {
      widget: "어텐션 포화 실험",
      noscript: "이 실험은 자바스크립트가 있어야 동작합니다.",
      dim: "헤드 차원 " + DK,
      dimHint: "쿼리·키 벡터의 성분 수 (로그 눈금)",
      length: "시퀀스 길이 n",
      lengthHint: "쿼리와 키의 개수",
      scale: "스케일링",
      scaleNone: "없음 (q·k 그대로)",
      scaleSqrt: "÷√" + DK,
      scaleUnit: "÷σ_qσ_k√" + DK + " (로짓 전체의 분산 1)",
      range: "성분의 범위 uniform[최솟값, 최댓값]",
      min: "최솟값",
      max: "최댓값",
      rangeOrder: "최솟값이 최댓값보다 작아야 합니다.",
      rangeNumber: "−100에서 100 사이의 수를 넣어 주세요.",
      rangeStale: "범위를 고칠 때까지는 마지막으로 올바르게 입력한 범위의 결과를 보여 줍니다.",
      seed: "시드",
      newSample: "새 표본",
      divisor: "로짓을 나누는 값",
      meanNonZero: "평균이 0이 아니므로",
      rowVariance: "한 행의 키 사이 분산은 평균 σ²(σ²+μ²)" + DK + " ÷ (나누는 값)² = ",
      heatmap: "소프트맥스 가중치 (행: 쿼리, 열: 키)",
      heatmapLabel: function (n, s) {
        return n + "×" + n + " 소프트맥스 가중치 히트맵. 행 최대 가중치 평균 " + s + ".";
      },
      colorbar: "가중치",
      entropy: "행 엔트로피 평균",
      entropyRef: "최댓값 log n",
      maxWeight: "행 최대 가중치 평균",
      maxWeightRef: "균등하면 1/n",
      jacobian: "‖J‖_F 평균 (소프트맥스 야코비안)",
      jacobianRef: "균등하면 √(n−1)/n",
      logitStd: "로짓 표준편차 (전체)",
      logitStdRef: "이론값",
      timing: function (ms, n, d) {
        return "마지막 갱신 " + ms + " ms (n = " + n + ", " + DK + " = " + d + ")";
      },
      checkPending: "패키지의 참값과 비교하는 중…",
      checkResult: function (ok, total, err) {
        return (ok === total ? "패키지와 일치: " : "패키지와 불일치: ") + ok + "/" + total +
          " (최대 상대 오차 " + err + ")";
      },
      checkFailed: "패키지의 참값을 불러오지 못했습니다.",
      lengthValue: function (n) { return "n = " + n; },
      summary: function (d, n, scale, s) {
        return "헤드 차원 " + DK + " = " + d + ", 시퀀스 길이 n = " + n + ", 스케일링 " + scale +
          ". 행 엔트로피 평균 " +
          s.entropy + ", 행 최대 가중치 평균 " + s.max_weight + ", 야코비안 프로베니우스 노름 평균 " +
          s.jacobian_fro + ", 로짓 표준편차 " + s.logit_std + ".";
      },
    },
    en: {
      widget: "Attention saturation experiment",
      noscript: "This experiment needs JavaScript.",
      dim: "Head dimension " + DK,
      dimHint: "components of each query and key vector (log scale)",
      length: "Sequence length n",
      lengthHint: "number of queries and keys",
      scale: "Scaling",
      scaleNone: "none (raw q·k)",
      scaleSqrt: "÷√" + DK,
      scaleUnit: "÷σ_qσ_k√" + DK + " (unit variance, all logits pooled)",
      range: "Component range uniform[min, max]",
      min: "min",
      max: "max",
      rangeOrder: "min must be smaller than max.",
      rangeNumber: "Enter a number between −100 and 100.",
      rangeStale: "Until the range is fixed, the results are those of the last valid range.",
      seed: "Seed",
      newSample: "New sample",
      divisor: "Logits divided by",
      meanNonZero: "the mean is not zero",
      rowVariance: "within a row, across its keys, the variance is σ²(σ²+μ²)" + DK +
        " / divisor² = ",
      heatmap: "Softmax weights (rows: queries, columns: keys)",
      heatmapLabel: function (n, s) {
        return n + "×" + n + " heatmap of softmax weights. Mean row max weight " + s + ".";
      },
      colorbar: "weight",
      entropy: "Mean row entropy",
      entropyRef: "at most log n",
      maxWeight: "Mean row max weight",
      maxWeightRef: "uniform: 1/n",
      jacobian: "Mean ‖J‖_F (softmax Jacobian)",
      jacobianRef: "uniform: √(n−1)/n",
      logitStd: "Logit std (all pooled)",
      logitStdRef: "theory",
      timing: function (ms, n, d) {
        return "Last update " + ms + " ms (n = " + n + ", " + DK + " = " + d + ")";
      },
      checkPending: "Comparing with the package's values…",
      checkResult: function (ok, total, err) {
        return (ok === total ? "Matches the package: " : "Differs from the package: ") + ok +
          "/" + total + " (max relative error " + err + ")";
      },
      checkFailed: "Could not load the package's reference values.",
      lengthValue: function (n) { return "n = " + n; },
      summary: function (d, n, scale, s) {
        return "Head dimension " + DK + " = " + d + ", sequence length n = " + n + ", scaling " +
          scale + ". Mean row entropy " +
          s.entropy + ", mean row max weight " + s.max_weight + ", mean Jacobian Frobenius norm " +
          s.jacobian_fro + ", logit std " + s.logit_std + ".";
      },
    },
  };

  // cividis (matplotlib), 32 anchors from 0 to 1, interpolated linearly in sRGB.
  var CIVIDIS = [
    0x00224e, 0x00285b, 0x002e6a, 0x053371, 0x1c396f, 0x293f6e, 0x33446d, 0x3c4a6c,
    0x45506c, 0x4d556c, 0x555b6d, 0x5c616e, 0x646770, 0x6b6d72, 0x727274, 0x787877,
    0x807f78, 0x888578, 0x908b78, 0x979177, 0xa09875, 0xa89e73, 0xb0a571, 0xb9ab6d,
    0xc2b369, 0xcbb965, 0xd3c05f, 0xdcc859, 0xe6d051, 0xefd748, 0xf8df3c, 0xfee838,
  ];
  var LUT = (function () {
    var lut = new Uint8ClampedArray(256 * 3);
    var last = CIVIDIS.length - 1;
    for (var i = 0; i < 256; i++) {
      var t = (i / 255) * last;
      var k = Math.min(Math.floor(t), last - 1);
      var f = t - k;
      for (var ch = 0; ch < 3; ch++) {
        var shift = 16 - 8 * ch;
        var lo = (CIVIDIS[k] >> shift) & 255;
        var hi = (CIVIDIS[k + 1] >> shift) & 255;
        lut[3 * i + ch] = Math.round(lo + (hi - lo) * f);
      }
    }
    return lut;
  })();

  // ------------------------------------------------------------------------- the math

  /** lowbias32 of counter i under seed s, mapped to (0, 1); bit-exact with the package. */
  function hashUniform(seed, i) {
    // Math.imul keeps the low 32 bits of each product exactly; the sum of two int32s and a
    // constant is exact in a double, and >>> 0 reduces it mod 2^32.
    var x = (Math.imul(seed, 0x9e3779b1) + Math.imul(i, 0x85ebca77) + 0x632be5ab) >>> 0;
    x ^= x >>> 16;
    x = Math.imul(x, 0x7feb352d);
    x ^= x >>> 15;
    x = Math.imul(x, 0x846ca68b);
    x ^= x >>> 16;
    return ((x >>> 0) + 0.5) / 4294967296;
  }

  function checkInt(name, value, low, high) {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw new TypeError(name + " must be an integer in [" + low + ", " + high + "], got " +
        String(value));
    }
    if (value < low || value > high) {
      throw new RangeError(name + " must be an integer in [" + low + ", " + high + "], got " +
        value);
    }
    return value;
  }

  function checkInputs(seed, dim, length, scale, minval, maxval) {
    checkInt("seed", seed, 0, MAX_SEED);
    checkInt("dim", dim, 1, MAX_DIM);
    checkInt("length", length, 1, MAX_LENGTH);
    if (SCALES.indexOf(scale) < 0) {
      throw new RangeError("scale must be one of " + SCALES.join(", ") + "; got " + String(scale));
    }
    [["minval", minval], ["maxval", maxval]].forEach(function (pair) {
      if (typeof pair[1] !== "number" || !Number.isFinite(pair[1])) {
        throw new TypeError(pair[0] + " must be a finite number, got " + String(pair[1]));
      }
    });
    if (!(minval < maxval)) {
      throw new RangeError("minval must be smaller than maxval, got minval=" + minval +
        ", maxval=" + maxval);
    }
  }

  /** Queries A and keys B ([length, dim], row-major) and the raw logits A·Bᵀ. */
  function drawSample(seed, dim, length, minval, maxval) {
    var size = length * dim;
    var span = maxval - minval;
    var a = new Float64Array(size);
    var b = new Float64Array(size);
    fillUniform(a, seed, 0, minval, span);
    fillUniform(b, seed, size, minval, span);
    return { a: a, b: b, raw: matmulTransposed(a, b, length, dim) };
  }

  /** out[j] = minval + span · u(seed, first + j): hashUniform, unrolled for speed. */
  function fillUniform(out, seed, first, minval, span) {
    // The counter term advances by 0x85EBCA77 mod 2^32 per draw; keep it as a uint32.
    var base = (Math.imul(seed, 0x9e3779b1) + 0x632be5ab) | 0;
    var step = 0x85ebca77 | 0;
    var x = (base + Math.imul(first, step)) | 0;
    for (var j = 0; j < out.length; j++) {
      var h = x;
      h ^= h >>> 16;
      h = Math.imul(h, 0x7feb352d);
      h ^= h >>> 15;
      h = Math.imul(h, 0x846ca68b);
      h ^= h >>> 16;
      out[j] = minval + span * (((h >>> 0) + 0.5) / 4294967296);
      x = (x + step) | 0;
    }
  }

  /** C = A·Bᵀ for row-major [n, d] A and B, blocked 2×2 so each load feeds two products. */
  function matmulTransposed(a, b, n, d) {
    var c = new Float64Array(n * n);
    var even = n - (n % 2);
    var i, j, k, a0, a1, b0, b1, s00, s01, s10, s11, x0, x1, y0, y1;
    for (i = 0; i < even; i += 2) {
      a0 = i * d;
      a1 = a0 + d;
      for (j = 0; j < even; j += 2) {
        b0 = j * d;
        b1 = b0 + d;
        s00 = 0;
        s01 = 0;
        s10 = 0;
        s11 = 0;
        for (k = 0; k < d; k++) {
          x0 = a[a0 + k];
          x1 = a[a1 + k];
          y0 = b[b0 + k];
          y1 = b[b1 + k];
          s00 += x0 * y0;
          s01 += x0 * y1;
          s10 += x1 * y0;
          s11 += x1 * y1;
        }
        c[i * n + j] = s00;
        c[i * n + j + 1] = s01;
        c[(i + 1) * n + j] = s10;
        c[(i + 1) * n + j + 1] = s11;
      }
    }
    // The last row and column when n is odd.
    for (i = 0; i < n; i++) {
      for (j = i < even ? even : 0; j < n; j++) {
        a0 = i * d;
        b0 = j * d;
        s00 = 0;
        for (k = 0; k < d; k++) s00 += a[a0 + k] * b[b0 + k];
        c[i * n + j] = s00;
      }
    }
    return c;
  }

  /** Mean and variance of uniform[minval, maxval]; Var(q·k) = d(σ⁴ + 2μ²σ²) (stats.py). */
  function uniformMoments(minval, maxval) {
    return [(minval + maxval) / 2, ((maxval - minval) * (maxval - minval)) / 12];
  }

  function logitVariance(dim, minval, maxval) {
    var m = uniformMoments(minval, maxval);
    return dim * (m[1] * m[1] + 2 * m[0] * m[0] * m[1]);
  }

  function scaleFactor(scale, dim, minval, maxval) {
    if (scale === "none") return 1.0;
    if (scale === "sqrt") return 1.0 / Math.sqrt(dim);
    return 1.0 / Math.sqrt(logitVariance(dim, minval, maxval));
  }

  /** Row-softmax weights (into `weights`) and the row means the package reports. */
  function softmaxStatistics(raw, n, factor, weights) {
    var count = n * n;
    var total = 0;
    var i, j, k;
    for (i = 0; i < count; i++) total += raw[i] * factor;
    var mean = total / count;
    var squares = 0;
    for (i = 0; i < count; i++) {
      var dev = raw[i] * factor - mean;
      squares += dev * dev;
    }
    var entropy = 0;
    var maxWeight = 0;
    var jacobian = 0;
    for (i = 0; i < n; i++) {
      var row = i * n;
      var top = -Infinity;
      for (j = 0; j < n; j++) top = Math.max(top, raw[row + j] * factor);
      var sum = 0;
      for (j = 0; j < n; j++) {
        var e = Math.exp(raw[row + j] * factor - top);
        weights[row + j] = e;
        sum += e;
      }
      var h = 0;
      var best = 0;
      for (j = 0; j < n; j++) {
        var p = weights[row + j] / sum;
        weights[row + j] = p;
        if (p > 0) h -= p * Math.log(p);
        if (p > best) best = p;
      }
      // ‖diag(p) − ppᵀ‖_F entry by entry, as the package computes it (no cancellation-prone
      // closed form: a saturated row has a tiny norm that must keep its relative accuracy).
      var fro = 0;
      for (j = 0; j < n; j++) {
        var pj = weights[row + j];
        for (k = 0; k < n; k++) {
          var v = (j === k ? pj : 0) - pj * weights[row + k];
          fro += v * v;
        }
      }
      entropy += h;
      maxWeight += best;
      jacobian += Math.sqrt(fro);
    }
    return {
      entropy: entropy / n,
      max_weight: maxWeight / n,
      jacobian_fro: jacobian / n,
      logit_std: Math.sqrt(squares / count),
    };
  }

  // A few recent samples, so that changing only the scale (or going back to a recent d)
  // does not redraw A and B nor redo A·Bᵀ.
  var cache = [];
  var draws = { count: 0 }; // how many samples were drawn (cache misses), for the tests

  function cachedSample(seed, dim, length, minval, maxval) {
    var key = [seed, dim, length, minval, maxval].join("|");
    for (var i = 0; i < cache.length; i++) {
      if (cache[i].key === key) {
        var hit = cache.splice(i, 1)[0];
        cache.unshift(hit);
        return hit.sample;
      }
    }
    var sample = drawSample(seed, dim, length, minval, maxval);
    draws.count += 1;
    cache.unshift({ key: key, sample: sample });
    if (cache.length > CACHE_SIZE) cache.pop();
    return sample;
  }

  function compute(seed, dim, length, scale, minval, maxval, useCache) {
    checkInputs(seed, dim, length, scale, minval, maxval);
    var sample = useCache
      ? cachedSample(seed, dim, length, minval, maxval)
      : drawSample(seed, dim, length, minval, maxval);
    var weights = new Float64Array(length * length);
    var stats = softmaxStatistics(sample.raw, length, scaleFactor(scale, dim, minval, maxval),
      weights);
    return { stats: stats, weights: weights };
  }

  /** The package's `explorer.statistics`, in the browser. */
  function statistics(seed, dim, length, scale, minval, maxval) {
    if (scale === undefined) scale = "none";
    if (minval === undefined) minval = -3.0;
    if (maxval === undefined) maxval = 3.0;
    return compute(seed, dim, length, scale, minval, maxval, false).stats;
  }

  /** The package's `explorer.sample`: queries and keys as nested arrays [length][dim]. */
  function sample(seed, dim, length, minval, maxval) {
    if (minval === undefined) minval = -3.0;
    if (maxval === undefined) maxval = 3.0;
    checkInputs(seed, dim, length, "none", minval, maxval);
    var size = length * dim;
    var a = new Float64Array(size);
    var b = new Float64Array(size);
    fillUniform(a, seed, 0, minval, maxval - minval);
    fillUniform(b, seed, size, minval, maxval - minval);
    var rows = function (flat) {
      var out = [];
      for (var r = 0; r < length; r++) out.push(Array.from(flat.subarray(r * dim, (r + 1) * dim)));
      return out;
    };
    return { queries: rows(a), keys: rows(b) };
  }

  var METRICS = ["entropy", "max_weight", "jacobian_fro", "logit_std"];

  function selfCheck(url) {
    return fetch(url || REFERENCE_URL, { cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status + " for " + response.url);
        return response.json();
      })
      .then(function (reference) {
        var maxRelError = 0;
        var cases = reference.map(function (item) {
          var input = item.input;
          var actual = statistics(input.seed, input.dim, input.length, input.scale,
            input.minval, input.maxval);
          var errors = {};
          var worst = 0;
          METRICS.forEach(function (name) {
            var expected = item.expected[name];
            var err = Math.abs(actual[name] - expected) / Math.max(Math.abs(expected), 1e-300);
            if (!(err <= worst)) worst = err; // NaN counts as the worst
            errors[name] = err;
          });
          if (!Number.isNaN(maxRelError) && !(worst <= maxRelError)) maxRelError = worst;
          return { input: input, expected: item.expected, actual: actual, relError: errors,
            maxRelError: worst, ok: worst <= 1e-6 };
        });
        return {
          cases: cases,
          passed: cases.filter(function (c) { return c.ok; }).length,
          total: cases.length,
          maxRelError: maxRelError,
        };
      });
  }

  // ------------------------------------------------------------------------- the widget

  function format(x) {
    if (!Number.isFinite(x)) return String(x);
    var abs = Math.abs(x);
    if (abs === 0) return "0";
    if (abs < 1e-3 || abs >= 1e5) return x.toExponential(2);
    if (abs >= 100) return x.toFixed(1);
    return x.toFixed(3);
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { node.appendChild(child); });
    return node;
  }

  /** Nodes for a label, with "‖J‖_F" set like the page's math: ‖J‖ in a serif face, italic
   * J, subscript F (CJK fonts draw ‖ full-width); and "σ_qσ_k", the unit-variance divisor's
   * σ_q σ_k (the term sheet's one notation), with its subscripts. */
  function rich(text) {
    var parts = text.split(/(‖J‖_F|σ_qσ_k)/);
    var nodes = [document.createTextNode(parts[0])];
    for (var i = 1; i < parts.length; i += 2) {
      if (parts[i] === "σ_qσ_k") {
        nodes.push(document.createTextNode("σ"), el("sub", { text: "q" }),
          document.createTextNode("σ"), el("sub", { text: "k" }));
      } else {
        nodes.push(el("span", { class: "ae-explorer__sym" }, [
          document.createTextNode("‖"), el("i", { text: "J" }), document.createTextNode("‖"),
        ]));
        nodes.push(el("sub", { text: "F" }));
      }
      nodes.push(document.createTextNode(parts[i + 1]));
    }
    return nodes;
  }

  function dimOf(x) {
    return Math.max(1, Math.min(MAX_DIM, Math.round(Math.pow(2, x))));
  }

  function build(root) {
    var lang = (root.getAttribute("data-lang") || document.documentElement.lang || "")
      .toLowerCase();
    var t = STRINGS[lang];
    if (!t) {
      throw new Error("explorer.js: STRINGS has no entry for language '" + lang + "'; " +
        "see 'Add a language' in CONTRIBUTING.md");
    }
    var uid = root.id || "ae-explorer";
    var id = function (name) { return uid + "-" + name; };

    var state = {
      seed: 0,
      dim: 16,
      length: 30,
      scale: "none",
      minval: -3.0,
      maxval: 3.0,
      valid: true,
      stats: null,
      lastUpdateMs: null,
      updates: 0,
      selfCheck: null,
      draws: 0,
      announcements: 0, // how often the statistics were announced (tests)
    };

    // Controls.
    var dimInput = el("input", { type: "range", id: id("dim"), min: "0", max: "12",
      step: "0.25", value: String(Math.log2(state.dim)), "aria-describedby": id("dim-hint") });
    var dimOut = el("output", { for: id("dim"), class: "ae-explorer__value" });
    var lengthInput = el("input", { type: "range", id: id("length"), min: "4",
      max: String(MAX_LENGTH), step: "1", value: String(state.length),
      "aria-describedby": id("length-hint") });
    var lengthOut = el("output", { for: id("length"), class: "ae-explorer__value" });

    var radios = {};
    var scaleSet = el("fieldset", { class: "ae-explorer__field ae-explorer__scale" },
      [el("legend", { text: t.scale })]);
    [["none", t.scaleNone], ["sqrt", t.scaleSqrt], ["unit", t.scaleUnit]].forEach(
      function (pair) {
        var radio = el("input", { type: "radio", name: id("scale"), id: id("scale-" + pair[0]),
          value: pair[0] });
        radio.checked = pair[0] === state.scale;
        radios[pair[0]] = radio;
        scaleSet.appendChild(el("label", { for: radio.id, class: "ae-explorer__radio" },
          [radio].concat(rich(" " + pair[1]))));
      });
    var divisorOut = el("p", { class: "ae-explorer__hint", id: id("divisor") });
    scaleSet.appendChild(divisorOut);

    var numberAttrs = function (name, value) {
      return { type: "number", id: id(name), min: String(-MAX_ABS_BOUND),
        max: String(MAX_ABS_BOUND), step: "0.5", value: String(value), inputmode: "decimal",
        "aria-describedby": id("range-error") };
    };
    var minInput = el("input", numberAttrs("min", state.minval));
    var maxInput = el("input", numberAttrs("max", state.maxval));
    var rangeError = el("p", { class: "ae-explorer__error", id: id("range-error"),
      role: "status", "aria-live": "polite" });
    var rangeSet = el("fieldset", { class: "ae-explorer__field ae-explorer__range" }, [
      el("legend", { text: t.range }),
      el("span", { class: "ae-explorer__pair" }, [
        el("label", { for: minInput.id, text: t.min }), minInput,
        el("label", { for: maxInput.id, text: t.max }), maxInput,
      ]),
      rangeError,
    ]);

    var seedOut = el("output", { class: "ae-explorer__value", id: id("seed") });
    var seedButton = el("button", { type: "button", class: "md-button ae-explorer__button",
      id: id("new-sample"), text: t.newSample });

    var controls = el("div", { class: "ae-explorer__controls" }, [
      el("div", { class: "ae-explorer__field" }, [
        el("label", { for: dimInput.id }, [document.createTextNode(t.dim + " = "), dimOut]),
        dimInput,
        el("p", { class: "ae-explorer__hint", id: id("dim-hint"), text: t.dimHint }),
      ]),
      el("div", { class: "ae-explorer__field" }, [
        el("label", { for: lengthInput.id }, [document.createTextNode(t.length + " = "),
          lengthOut]),
        lengthInput,
        el("p", { class: "ae-explorer__hint", id: id("length-hint"), text: t.lengthHint }),
      ]),
      scaleSet,
      rangeSet,
      el("div", { class: "ae-explorer__field ae-explorer__seed" }, [
        el("span", {}, [document.createTextNode(t.seed + " "), seedOut]),
        seedButton,
      ]),
    ]);

    // Heatmap with its colour bar.
    var canvas = el("canvas", { class: "ae-explorer__heatmap", role: "img", width: "30",
      height: "30" });
    var bar = el("div", { class: "ae-explorer__colorbar-bar", "aria-hidden": "true" });
    var stops = [];
    for (var s = 0; s < CIVIDIS.length; s++) {
      stops.push("#" + ("00000" + CIVIDIS[s].toString(16)).slice(-6) + " " +
        ((100 * s) / (CIVIDIS.length - 1)).toFixed(2) + "%");
    }
    bar.style.backgroundImage = "linear-gradient(to top, " + stops.join(", ") + ")";
    var colorbar = el("div", { class: "ae-explorer__colorbar", "aria-hidden": "true" }, [
      bar,
      el("div", { class: "ae-explorer__colorbar-ticks" }, [
        el("span", { text: "1" }), el("span", { text: "0.5" }), el("span", { text: "0" }),
      ]),
      el("div", { class: "ae-explorer__colorbar-label", text: t.colorbar }),
    ]);
    var figure = el("figure", { class: "ae-explorer__figure" }, [
      el("div", { class: "ae-explorer__plot" }, [canvas, colorbar]),
      el("figcaption", { text: t.heatmap }),
    ]);

    // Statistics.
    var statRows = {};
    var stats = el("dl", { class: "ae-explorer__stats", id: id("stats") });
    [["entropy", t.entropy], ["max_weight", t.maxWeight], ["jacobian_fro", t.jacobian],
      ["logit_std", t.logitStd]].forEach(function (pair) {
      var value = el("span", { class: "ae-explorer__number", "data-stat": pair[0] });
      var ref = el("span", { class: "ae-explorer__ref", "data-ref": pair[0] });
      statRows[pair[0]] = { value: value, ref: ref };
      stats.appendChild(el("div", { class: "ae-explorer__stat" }, [
        el("dt", {}, rich(pair[1])), el("dd", {}, [value, ref]),
      ]));
    });

    // The statistics for screen readers, in one sentence, after the controls come to rest.
    var announcer = el("p", { class: "ae-explorer__announce", id: id("announce"),
      role: "status", "aria-live": "polite", "aria-atomic": "true" });
    var announceTimer = null;

    var timing = el("p", { class: "ae-explorer__meta", id: id("timing") });
    var check = el("p", { class: "ae-explorer__meta", id: id("self-check"),
      text: t.checkPending });

    root.textContent = "";
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", t.widget);
    root.appendChild(controls);
    root.appendChild(el("div", { class: "ae-explorer__result" }, [figure, stats]));
    root.appendChild(announcer);
    root.appendChild(el("div", { class: "ae-explorer__footer" }, [timing, check]));

    var context = canvas.getContext("2d");
    var image = null;

    function draw(weights, n) {
      if (canvas.width !== n) {
        canvas.width = n;
        canvas.height = n;
      }
      if (!image || image.width !== n) image = context.createImageData(n, n);
      var data = image.data;
      for (var i = 0; i < n * n; i++) {
        var level = Math.round(Math.min(1, Math.max(0, weights[i])) * 255) * 3;
        data[4 * i] = LUT[level];
        data[4 * i + 1] = LUT[level + 1];
        data[4 * i + 2] = LUT[level + 2];
        data[4 * i + 3] = 255;
      }
      context.putImageData(image, 0, 0);
    }

    function showControls() {
      dimOut.textContent = String(state.dim);
      dimInput.setAttribute("aria-valuetext", DK + " = " + state.dim);
      lengthOut.textContent = String(state.length);
      lengthInput.setAttribute("aria-valuetext", t.lengthValue(state.length));
      seedOut.textContent = String(state.seed);
      var m = uniformMoments(state.minval, state.maxval);
      var divisor = 1 / scaleFactor(state.scale, state.dim, state.minval, state.maxval);
      var formula = { none: "1", sqrt: "√" + DK,
        unit: m[0] === 0 ? "σ_qσ_k√" + DK : "√(" + DK + "(σ⁴ + 2μ²σ²))" };
      var text = t.divisor + ": " + formula[state.scale];
      if (state.scale !== "none") text += " = " + format(divisor);
      if (state.scale === "unit" && m[0] !== 0) {
        // The divisor sets the pooled variance d(σ⁴ + 2μ²σ²) to 1; a row's softmax sees only
        // the variance across its keys, σ²(σ² + μ²)d on average, which is smaller.
        var rowVariance = (m[1] * (m[1] + m[0] * m[0]) * state.dim) / (divisor * divisor);
        text += " (" + t.meanNonZero + "); " + t.rowVariance + format(rowVariance);
      }
      divisorOut.textContent = "";
      rich(text).forEach(function (node) { divisorOut.appendChild(node); });
    }

    function update() {
      var start = performance.now();
      showControls();
      if (!state.valid) return;
      var n = state.length;
      var result = compute(state.seed, state.dim, n, state.scale, state.minval, state.maxval,
        true);
      draw(result.weights, n);
      var st = result.stats;
      statRows.entropy.value.textContent = format(st.entropy);
      statRows.entropy.ref.textContent = t.entropyRef + " = " + format(Math.log(n));
      statRows.max_weight.value.textContent = format(st.max_weight);
      statRows.max_weight.ref.textContent = t.maxWeightRef + " = " + format(1 / n);
      statRows.jacobian_fro.value.textContent = format(st.jacobian_fro);
      statRows.jacobian_fro.ref.textContent = t.jacobianRef + " = " +
        format(Math.sqrt(n - 1) / n);
      var theory = Math.sqrt(logitVariance(state.dim, state.minval, state.maxval)) *
        scaleFactor(state.scale, state.dim, state.minval, state.maxval);
      statRows.logit_std.value.textContent = format(st.logit_std);
      statRows.logit_std.ref.textContent = t.logitStdRef + " = " + format(theory);
      canvas.setAttribute("aria-label", t.heatmapLabel(n, format(st.max_weight)));
      state.stats = st;
      state.updates += 1;
      state.draws = draws.count;
      state.lastUpdateMs = performance.now() - start;
      timing.textContent = t.timing(state.lastUpdateMs.toFixed(1), n, state.dim);
      if (state.updates > 1) scheduleAnnouncement(); // not the first draw, only changes
    }

    function scheduleAnnouncement() {
      if (announceTimer !== null) window.clearTimeout(announceTimer);
      announceTimer = window.setTimeout(function () {
        announceTimer = null;
        var st = state.stats;
        var scale = { none: t.scaleNone, sqrt: t.scaleSqrt, unit: t.scaleUnit }[state.scale]
          .replace("σ_qσ_k", "σq σk");  // spoken: no underscores
        announcer.textContent = t.summary(state.dim, state.length, scale, {
          entropy: format(st.entropy), max_weight: format(st.max_weight),
          jacobian_fro: format(st.jacobian_fro), logit_std: format(st.logit_std),
        });
        state.announcements += 1;
      }, ANNOUNCE_DELAY_MS);
    }

    function readRange() {
      var low = minInput.value.trim() === "" ? NaN : Number(minInput.value);
      var high = maxInput.value.trim() === "" ? NaN : Number(maxInput.value);
      var inBounds = function (v) { return Number.isFinite(v) && Math.abs(v) <= MAX_ABS_BOUND; };
      var message = "";
      minInput.setAttribute("aria-invalid", String(!inBounds(low)));
      maxInput.setAttribute("aria-invalid", String(!inBounds(high)));
      if (!inBounds(low) || !inBounds(high)) {
        message = t.rangeNumber;
      } else if (!(low < high)) {
        message = t.rangeOrder;
        minInput.setAttribute("aria-invalid", "true");
        maxInput.setAttribute("aria-invalid", "true");
      }
      state.valid = !message;
      root.classList.toggle("ae-explorer--stale", !state.valid);
      rangeError.textContent = message ? message + " " + t.rangeStale : "";
      if (state.valid) {
        state.minval = low;
        state.maxval = high;
      }
      update();
    }

    dimInput.addEventListener("input", function () {
      state.dim = dimOf(Number(dimInput.value));
      update();
    });
    lengthInput.addEventListener("input", function () {
      state.length = Number(lengthInput.value);
      update();
    });
    SCALES.forEach(function (name) {
      radios[name].addEventListener("change", function () {
        if (radios[name].checked) {
          state.scale = name;
          update();
        }
      });
    });
    minInput.addEventListener("input", readRange);
    maxInput.addEventListener("input", readRange);
    seedButton.addEventListener("click", function () {
      state.seed = state.seed >= MAX_SEED ? 0 : state.seed + 1;
      update();
    });

    update();

    var referenceUrl = new URL(root.getAttribute("data-reference") || REFERENCE_URL,
      document.baseURI).href;
    var api = {
      statistics: statistics,
      sample: sample,
      hash: hashUniform,
      selfCheck: function () {
        return selfCheck(referenceUrl).then(function (result) {
          state.selfCheck = result;
          var err = result.maxRelError;
          check.textContent = t.checkResult(result.passed, result.total,
            err === 0 ? "0" : err.toExponential(0));
          check.classList.toggle("ae-explorer__meta--bad", result.passed !== result.total);
          return result;
        });
      },
      state: state,
      update: update,
    };
    window.aeExplorer = api;
    // The check runs after the first paint so that it never delays the widget.
    window.setTimeout(function () {
      api.selfCheck().catch(function () {
        check.textContent = t.checkFailed;
        check.classList.add("ae-explorer__meta--bad");
      });
    }, 0);
  }

  function init() {
    var root = document.querySelector(".ae-explorer");
    if (!root || root.getAttribute("data-ae-ready")) return;
    root.setAttribute("data-ae-ready", "true");
    build(root);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init); // Material's instant navigation, if ever enabled
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();

/* Your own vectors, one row (`.ae-row`): a query and a few keys, or bare logits q·k, typed or
 * pasted by the reader. Reproduces attention_explained/explorer.py's vector_statistics and
 * logit_statistics: the vectors repeated end to end ("scale up", d_k = repeat · width), the row
 * of logits scaled by 1, 1/√d_k and 1/d_k, and per scaling the weights, p(1−p), the entropy
 * and ‖J‖_F, in float64. The input lives in the URL's query string (?row=…), so a link shares it.
 */
(function () {
  "use strict";

  var MAX_KEYS = 16;
  var MAX_WIDTH = 256;
  var MAX_ABS = 1e6;
  var MAX_DIM = 4096;
  var REPEATS = [1, 2, 4, 8, 16];
  var SCALES = ["none", "sqrt", "dk"];
  var ANNOUNCE_DELAY_MS = 700;
  var DK = "dₖ";
  var DEFAULT_VECTORS = "1, 2, -1, 0.5\n1, 1, 0, 0\n0, 2, -1, 1\n-1, 0, 1, 2\n2, -1, 0, 1";
  var DEFAULT_LOGITS = "3\n5.5\n-1\n0.5";
  var NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

  var STRINGS = {
    ko: {
      widget: "내 벡터로 보는 한 행",
      mode: "입력 방식",
      modeVectors: "쿼리와 키 벡터",
      modeLogits: "로짓만 (키마다 q·k 하나)",
      input: "입력",
      hintVectors: "한 줄에 벡터 하나: 첫 줄은 쿼리, 다음 줄부터 키입니다. 수는 쉼표나 공백으로 " +
        "구분합니다. 키는 " + MAX_KEYS + "개까지, 벡터 하나에 수 " + MAX_WIDTH + "개까지.",
      hintLogits: "한 줄에 키 하나의 스케일링 전 로짓 q·k. 키는 " + MAX_KEYS + "개까지.",
      dk: "이 로짓을 만든 헤드 차원 " + DK,
      repeat: "늘리기: 벡터를 이어 붙인 횟수",
      repeatValue: function (m, d) { return "×" + m + " (" + DK + " = " + d + ")"; },
      link: "이 입력의 링크",
      scaleNone: "스케일링 없음",
      scaleSqrt: "÷√" + DK,
      scaleDk: "÷" + DK,
      key: "키",
      logit: "로짓",
      weight: "가중치 p",
      p1p: "p(1−p)",
      entropy: "엔트로피 (내트)",
      jacobian: "‖J‖_F",
      raw: "스케일링 전 로짓 q·k",
      bars: "키별 가중치: 세 스케일링을 나란히",
      curve: "엔트로피와 " + DK + ": 벡터를 이어 붙일수록",
      curveX: DK,
      curveY: "엔트로피 (내트)",
      logN: "log n",
      curveLabel: function (parts) {
        return "엔트로피와 헤드 차원의 그래프. " + parts.join(" ");
      },
      curvePart: function (m, d, values) {
        return "×" + m + " (" + DK + " = " + d + "): " + values + ".";
      },
      summary: function (d, parts) {
        return DK + " = " + d + ". 엔트로피: " + parts + ".";
      },
      errors: {
        empty: "입력이 비어 있습니다. 첫 줄에 쿼리, 다음 줄부터 키를 넣어 주세요.",
        emptyLogits: "입력이 비어 있습니다. 한 줄에 로짓을 하나씩 넣어 주세요.",
        number: function (e) {
          return e.line + "번째 줄의 " + e.item + "번째 항목 '" + e.token + "'은(는) 수가 아닙니다.";
        },
        big: function (e) {
          return e.line + "번째 줄의 " + e.item + "번째 수 " + e.token + "이(가) 너무 큽니다. " +
            "절댓값이 " + MAX_ABS.toExponential(0) + " 이하여야 합니다.";
        },
        wide: function (e) {
          return e.line + "번째 줄에 수가 " + e.count + "개 있습니다. 벡터 하나에 " + MAX_WIDTH +
            "개까지 넣을 수 있습니다.";
        },
        mismatch: function (e) {
          return e.line + "번째 줄(키)에 수가 " + e.count + "개 있는데 쿼리(" + e.queryLine +
            "번째 줄)에는 " + e.width + "개 있습니다. 길이가 같아야 합니다.";
        },
        noKeys: "쿼리만 있습니다. 다음 줄에 키를 하나 이상 넣어 주세요.",
        tooMany: function (e) {
          return "키가 " + e.count + "개입니다. " + MAX_KEYS + "개까지 넣을 수 있습니다.";
        },
        perLine: function (e) {
          return e.line + "번째 줄에 수가 " + e.count + "개 있습니다. 로짓만 넣을 때는 한 줄에 " +
            "키 하나의 로짓 하나만 씁니다.";
        },
        dk: DK + "는 1에서 " + MAX_DIM + " 사이의 정수여야 합니다.",
        stale: "고칠 때까지는 마지막으로 올바르게 입력한 값의 결과를 보여 줍니다.",
      },
    },
    en: {
      widget: "One row from your own vectors",
      mode: "Input",
      modeVectors: "Query and key vectors",
      modeLogits: "Logits only (one q·k per key)",
      input: "Your input",
      hintVectors: "One vector a line: the query first, then the keys. Separate the numbers " +
        "with commas or spaces. Up to " + MAX_KEYS + " keys and " + MAX_WIDTH +
        " numbers a vector.",
      hintLogits: "One key a line: its logit q·k before scaling. Up to " + MAX_KEYS + " keys.",
      dk: "Head dimension " + DK + " these logits came from",
      repeat: "Scale up: copies of each vector, end to end",
      repeatValue: function (m, d) { return "×" + m + " (" + DK + " = " + d + ")"; },
      link: "Link to this input",
      scaleNone: "No scaling",
      scaleSqrt: "÷√" + DK,
      scaleDk: "÷" + DK,
      key: "Key",
      logit: "Logit",
      weight: "Weight p",
      p1p: "p(1−p)",
      entropy: "Entropy (nats)",
      jacobian: "‖J‖_F",
      raw: "Logit before scaling q·k",
      bars: "Weight of each key: the three scalings side by side",
      curve: "Entropy against " + DK + " as the vectors are repeated",
      curveX: DK,
      curveY: "entropy (nats)",
      logN: "log n",
      curveLabel: function (parts) {
        return "Graph of the entropy against the head dimension. " + parts.join(" ");
      },
      curvePart: function (m, d, values) {
        return "×" + m + " (" + DK + " = " + d + "): " + values + ".";
      },
      summary: function (d, parts) {
        return DK + " = " + d + ". Entropy: " + parts + ".";
      },
      errors: {
        empty: "The input is empty. Put the query on the first line and the keys below it.",
        emptyLogits: "The input is empty. Put one logit a line.",
        number: function (e) {
          return "Line " + e.line + ", item " + e.item + ": '" + e.token + "' is not a number.";
        },
        big: function (e) {
          return "Line " + e.line + ", number " + e.item + ": " + e.token + " is too large; " +
            "each number must lie between −" + MAX_ABS.toExponential(0) + " and " +
            MAX_ABS.toExponential(0) + ".";
        },
        wide: function (e) {
          return "Line " + e.line + " has " + e.count + " numbers; a vector holds at most " +
            MAX_WIDTH + ".";
        },
        mismatch: function (e) {
          return "Line " + e.line + " (a key) has " + e.count + " numbers, but the query (line " +
            e.queryLine + ") has " + e.width + ". They must have the same length.";
        },
        noKeys: "There is only a query: add at least one key on the next line.",
        tooMany: function (e) {
          return e.count + " keys: at most " + MAX_KEYS + " are allowed.";
        },
        perLine: function (e) {
          return "Line " + e.line + " has " + e.count + " numbers; with logits only, each line " +
            "holds one key's logit.";
        },
        dk: DK + " must be a whole number from 1 to " + MAX_DIM + ".",
        stale: "Until it is fixed, the results are those of the last valid input.",
      },
    },
  };

  // ------------------------------------------------------------------------- the math

  /** The reader's text as numbers: {query, keys} or {logits}, or {error: {code, line, …}}. */
  function parse(text, mode) {
    var lines = String(text).replace(/\r\n?/g, "\n").split("\n");
    var rows = [];
    for (var l = 0; l < lines.length; l++) {
      var cleaned = lines[l].replace(/[−–]/g, "-").replace(/[[\]()]/g, " ").trim();
      if (!cleaned) continue;
      var tokens = cleaned.split(/[\s,;，、]+/).filter(function (t) { return t !== ""; });
      if (!tokens.length) continue;
      var values = [];
      for (var i = 0; i < tokens.length; i++) {
        var where = { line: l + 1, item: i + 1, token: tokens[i] };
        if (!NUMBER.test(tokens[i])) return { error: Object.assign({ code: "number" }, where) };
        var value = parseFloat(tokens[i]);
        if (!(Math.abs(value) <= MAX_ABS)) return { error: Object.assign({ code: "big" }, where) };
        values.push(value + 0); // -0 is 0
      }
      rows.push({ line: l + 1, values: values });
    }
    if (mode === "logits") {
      if (!rows.length) return { error: { code: "emptyLogits" } };
      for (var r = 0; r < rows.length; r++) {
        if (rows[r].values.length !== 1) {
          return { error: { code: "perLine", line: rows[r].line, count: rows[r].values.length } };
        }
      }
      if (rows.length > MAX_KEYS) return { error: { code: "tooMany", count: rows.length } };
      return { logits: rows.map(function (row) { return row.values[0]; }) };
    }
    if (!rows.length) return { error: { code: "empty" } };
    var query = rows[0];
    if (query.values.length > MAX_WIDTH) {
      return { error: { code: "wide", line: query.line, count: query.values.length } };
    }
    if (rows.length === 1) return { error: { code: "noKeys" } };
    for (var k = 1; k < rows.length; k++) {
      if (rows[k].values.length !== query.values.length) {
        return { error: { code: "mismatch", line: rows[k].line, count: rows[k].values.length,
          queryLine: query.line, width: query.values.length } };
      }
    }
    if (rows.length - 1 > MAX_KEYS) return { error: { code: "tooMany", count: rows.length - 1 } };
    return { query: query.values, keys: rows.slice(1).map(function (row) { return row.values; }) };
  }

  function checkRepeat(repeat) {
    if (REPEATS.indexOf(repeat) < 0) {
      throw new RangeError("repeat must be one of " + REPEATS.join(", ") + ", got " + repeat);
    }
  }

  /** Per scaling: logits, weights, p(1−p), entropy and ‖J‖_F (entry by entry) of one row. */
  function rowStatistics(raw, dim) {
    var factors = { none: 1, sqrt: 1 / Math.sqrt(dim), dk: 1 / dim };
    var out = {};
    SCALES.forEach(function (scale) {
      var z = raw.map(function (v) { return v * factors[scale]; });
      var top = Math.max.apply(null, z);
      var e = z.map(function (v) { return Math.exp(v - top); });
      var sum = e.reduce(function (a, b) { return a + b; }, 0);
      var p = e.map(function (v) { return v / sum; });
      var h = 0;
      var fro = 0;
      for (var j = 0; j < p.length; j++) {
        if (p[j] > 0) h -= p[j] * Math.log(p[j]);
        for (var k = 0; k < p.length; k++) {
          var v = (j === k ? p[j] : 0) - p[j] * p[k];
          fro += v * v;
        }
      }
      out[scale] = {
        logits: z,
        weights: p,
        p1p: p.map(function (v) { return v * (1 - v); }),
        entropy: h + 0,
        jacobian_fro: Math.sqrt(fro),
      };
    });
    return out;
  }

  function withRow(result, raw, dim) {
    var rows = rowStatistics(raw, dim);
    result.dim = dim;
    result.raw = raw;
    SCALES.forEach(function (scale) { result[scale] = rows[scale]; });
    return result;
  }

  /** The package's explorer.vector_statistics: the vectors repeated end to end, then q·k. */
  function vectorStatistics(query, keys, repeat) {
    if (repeat === undefined) repeat = 1;
    checkRepeat(repeat);
    var width = query.length;
    var raw = keys.map(function (key) {
      if (key.length !== width) throw new RangeError("keys must have the query's length");
      var dot = 0;
      for (var c = 0; c < repeat * width; c++) dot += query[c % width] * key[c % width];
      return dot;
    });
    return withRow({}, raw, repeat * width);
  }

  /** The package's explorer.logit_statistics: repeating q and k multiplies q·k and d_k. */
  function logitStatistics(logits, dim, repeat) {
    if (repeat === undefined) repeat = 1;
    checkRepeat(repeat);
    return withRow({}, logits.map(function (v) { return v * repeat; }), dim * repeat);
  }

  // ------------------------------------------------------------------------- the widget

  function format(x) {
    if (!Number.isFinite(x)) return String(x);
    var abs = Math.abs(x);
    if (abs === 0) return "0";
    if (abs < 1e-3 || abs >= 1e5) return x.toExponential(2);
    if (abs >= 100) return x.toFixed(1);
    return x.toFixed(3);
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { node.appendChild(child); });
    return node;
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** "‖J‖_F" as the page's math sets it (the heatmap widget's rule). */
  function rich(text) {
    var parts = text.split("‖J‖_F");
    var nodes = [document.createTextNode(parts[0])];
    for (var i = 1; i < parts.length; i++) {
      nodes.push(el("span", { class: "ae-explorer__sym" }, [
        document.createTextNode("‖"), el("i", { text: "J" }), document.createTextNode("‖"),
      ]));
      nodes.push(el("sub", { text: "F" }));
      nodes.push(document.createTextNode(parts[i]));
    }
    return nodes;
  }

  /** The input as a short URL value: numbers joined by ",", lines by ";". */
  function serialize(parsed) {
    var rows = parsed.logits ? parsed.logits.map(function (v) { return [v]; })
      : [parsed.query].concat(parsed.keys);
    return rows.map(function (row) { return row.map(String).join(","); }).join(";");
  }

  function build(root) {
    var lang = (root.getAttribute("data-lang") || document.documentElement.lang || "")
      .toLowerCase();
    var t = STRINGS[lang];
    if (!t) {
      throw new Error("explorer.js: STRINGS has no entry for language '" + lang + "'; " +
        "see 'Add a language' in CONTRIBUTING.md");
    }
    var uid = root.id || "ae-row";
    var id = function (name) { return uid + "-" + name; };
    var scaleName = { none: t.scaleNone, sqrt: t.scaleSqrt, dk: t.scaleDk };

    var state = {
      mode: "vectors",
      repeat: 1,
      dk: 64,
      valid: true,
      error: null,
      result: null,
      parsed: null,
      updates: 0,
      announcements: 0,
    };

    // Controls.
    var radios = {};
    var modeSet = el("fieldset", { class: "ae-explorer__field ae-row__mode" },
      [el("legend", { text: t.mode })]);
    [["vectors", t.modeVectors], ["logits", t.modeLogits]].forEach(function (pair) {
      var radio = el("input", { type: "radio", name: id("mode"), id: id("mode-" + pair[0]),
        value: pair[0] });
      radios[pair[0]] = radio;
      modeSet.appendChild(el("label", { for: radio.id, class: "ae-explorer__radio" },
        [radio, document.createTextNode(" " + pair[1])]));
    });
    var textarea = el("textarea", { id: id("input"), rows: "6", spellcheck: "false",
      autocomplete: "off", autocapitalize: "off", class: "ae-row__input",
      "aria-describedby": id("hint") + " " + id("error") });
    var hint = el("p", { class: "ae-explorer__hint", id: id("hint") });
    var dkInput = el("input", { type: "number", id: id("dk"), min: "1", max: String(MAX_DIM),
      step: "1", inputmode: "numeric", "aria-describedby": id("error") });
    var dkField = el("div", { class: "ae-explorer__field ae-row__dk" }, [
      el("label", { for: dkInput.id, text: t.dk }), dkInput,
    ]);
    var repeatInput = el("input", { type: "range", id: id("repeat"), min: "0",
      max: String(REPEATS.length - 1), step: "1", value: "0" });
    var repeatOut = el("output", { for: repeatInput.id, class: "ae-explorer__value" });
    var error = el("p", { class: "ae-explorer__error", id: id("error"), role: "status",
      "aria-live": "polite" });
    var link = el("a", { id: id("link"), class: "ae-row__link", text: t.link });

    var controls = el("div", { class: "ae-row__controls" }, [
      modeSet,
      el("div", { class: "ae-explorer__field ae-row__text" }, [
        el("label", { for: textarea.id, text: t.input }), textarea, hint, error,
      ]),
      dkField,
      el("div", { class: "ae-explorer__field" }, [
        el("label", { for: repeatInput.id }, [document.createTextNode(t.repeat + " "),
          repeatOut]),
        repeatInput,
      ]),
      el("p", { class: "ae-row__share" }, [link]),
    ]);

    // Bars (drawn for the eye; the tables below hold the same numbers for everyone).
    var bars = el("div", { class: "ae-row__bars", "aria-hidden": "true" });
    var legend = el("div", { class: "ae-row__legend", "aria-hidden": "true" });
    SCALES.forEach(function (scale) {
      legend.appendChild(el("span", { class: "ae-row__swatch ae-row--" + scale },
        [el("span", { class: "ae-row__chip" }), document.createTextNode(scaleName[scale])]));
    });
    var barFigure = el("figure", { class: "ae-row__figure" }, [
      legend, bars, el("figcaption", { text: t.bars }),
    ]);

    // Entropy against d_k.
    var W = 320, H = 170, L = 40, R = 12, T = 12, B = 38;
    var plot = svg("svg", { class: "ae-row__curve", viewBox: "0 0 " + W + " " + H,
      role: "img", id: id("curve") });
    var curveFigure = el("figure", { class: "ae-row__figure" }, [
      plot, el("figcaption", { text: t.curve }),
    ]);

    var tables = el("div", { class: "ae-row__tables", id: id("tables") });
    var rawLine = el("p", { class: "ae-row__raw", id: id("raw") });
    var announcer = el("p", { class: "ae-explorer__announce", id: id("announce"),
      role: "status", "aria-live": "polite", "aria-atomic": "true" });
    var announceTimer = null;

    root.textContent = "";
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", t.widget);
    root.appendChild(controls);
    root.appendChild(el("div", { class: "ae-row__result" }, [
      el("div", { class: "ae-row__views" }, [barFigure, curveFigure]), rawLine, tables,
    ]));
    root.appendChild(announcer);

    function drawBars(result) {
      bars.textContent = "";
      result.raw.forEach(function (_, j) {
        var group = el("div", { class: "ae-row__group" }, [
          el("span", { class: "ae-row__key", text: t.key + " " + (j + 1) }),
        ]);
        var stack = el("div", { class: "ae-row__stack" });
        SCALES.forEach(function (scale) {
          var p = result[scale].weights[j];
          var bar = el("span", { class: "ae-row__bar ae-row--" + scale });
          bar.style.width = (100 * p).toFixed(2) + "%";
          stack.appendChild(el("span", { class: "ae-row__line" }, [
            el("span", { class: "ae-row__track" }, [bar]),
            el("span", { class: "ae-row__p", text: format(p) }),
          ]));
        });
        group.appendChild(stack);
        bars.appendChild(group);
      });
    }

    function drawTables(result) {
      tables.textContent = "";
      SCALES.forEach(function (scale) {
        var row = result[scale];
        var body = el("tbody");
        row.weights.forEach(function (p, j) {
          body.appendChild(el("tr", {}, [
            el("th", { scope: "row", text: String(j + 1) }),
            el("td", { text: format(row.logits[j]) }),
            el("td", { text: format(p), "data-weight": scale }),
            el("td", { text: format(row.p1p[j]) }),
          ]));
        });
        var foot = el("tfoot", {}, [
          el("tr", {}, [el("th", { scope: "row", colspan: "3", text: t.entropy }),
            el("td", { text: format(row.entropy), "data-entropy": scale })]),
          el("tr", {}, [el("th", { scope: "row", colspan: "3" }, rich(t.jacobian)),
            el("td", { text: format(row.jacobian_fro), "data-jacobian": scale })]),
        ]);
        var head = el("thead", {}, [el("tr", {}, [
          el("th", { scope: "col", text: t.key }), el("th", { scope: "col", text: t.logit }),
          el("th", { scope: "col", text: t.weight }), el("th", { scope: "col", text: t.p1p }),
        ])]);
        tables.appendChild(el("table", { class: "ae-row__table ae-row--" + scale,
          "data-scale": scale }, [el("caption", { text: scaleName[scale] }), head, body, foot]));
      });
    }

    /** Entropy at each whole number of copies 1…16 (d_k = m · width), three scalings. */
    function curveData(parsed, dim) {
      var points = [];
      for (var m = 1; m <= REPEATS[REPEATS.length - 1]; m++) {
        var raw = (parsed.logits ? parsed.logits : rawDots(parsed)).map(function (v) {
          return v * m;
        });
        var rows = rowStatistics(raw, dim * m);
        points.push({ m: m, none: rows.none.entropy, sqrt: rows.sqrt.entropy,
          dk: rows.dk.entropy });
      }
      return points;
    }

    function rawDots(parsed) {
      return parsed.keys.map(function (key) {
        var dot = 0;
        for (var c = 0; c < key.length; c++) dot += parsed.query[c] * key[c];
        return dot;
      });
    }

    function drawCurve(parsed, width, result) {
      var n = result.raw.length;
      var top = Math.max(Math.log(n), 0.1);
      var maxM = REPEATS[REPEATS.length - 1];
      var x = function (m) { return L + ((W - L - R) * Math.log2(m)) / Math.log2(maxM); };
      var y = function (h) { return T + (H - T - B) * (1 - h / top); };
      var points = curveData(parsed, width);
      plot.textContent = "";
      plot.appendChild(svg("line", { class: "ae-row__axis", x1: L, y1: y(0), x2: W - R,
        y2: y(0) }));
      plot.appendChild(svg("line", { class: "ae-row__axis", x1: L, y1: T, x2: L, y2: y(0) }));
      plot.appendChild(svg("line", { class: "ae-row__ceiling", x1: L, y1: y(Math.log(n)),
        x2: W - R, y2: y(Math.log(n)) }));
      plot.appendChild(svg("text", { class: "ae-row__tick", x: L - 4, y: y(Math.log(n)) + 4,
        "text-anchor": "end" }, t.logN));
      plot.appendChild(svg("text", { class: "ae-row__tick", x: L - 4, y: y(0) + 4,
        "text-anchor": "end" }, "0"));
      REPEATS.forEach(function (m) {
        plot.appendChild(svg("line", { class: "ae-row__axis", x1: x(m), y1: y(0), x2: x(m),
          y2: y(0) + 4 }));
        plot.appendChild(svg("text", { class: "ae-row__tick", x: x(m), y: y(0) + 16,
          "text-anchor": "middle" }, String(m * width)));
      });
      plot.appendChild(svg("text", { class: "ae-row__tick", x: (L + W - R) / 2, y: H - 4,
        "text-anchor": "middle" }, t.curveX));
      plot.appendChild(svg("text", { class: "ae-row__tick", x: 12, y: T + (H - T - B) / 2,
        "text-anchor": "middle", transform: "rotate(-90 12 " + (T + (H - T - B) / 2) + ")" },
      t.curveY));
      var marker = x(state.repeat);
      plot.appendChild(svg("line", { class: "ae-row__now", x1: marker, y1: T, x2: marker,
        y2: y(0) }));
      SCALES.forEach(function (scale) {
        var d = points.map(function (pt, i) {
          return (i ? "L" : "M") + x(pt.m).toFixed(2) + " " + y(pt[scale]).toFixed(2);
        }).join(" ");
        plot.appendChild(svg("path", { class: "ae-row__path ae-row--" + scale, d: d }));
        plot.appendChild(svg("circle", { class: "ae-row__dot ae-row--" + scale, cx: marker,
          cy: y(result[scale].entropy), r: 4 }));
      });
      plot.setAttribute("aria-label", t.curveLabel(REPEATS.map(function (m) {
        var pt = points[m - 1];
        return t.curvePart(m, m * width, SCALES.map(function (scale) {
          return scaleName[scale] + " " + format(pt[scale]);
        }).join(", "));
      })));
    }

    function setMode(mode) {
      state.mode = mode;
      radios.vectors.checked = mode === "vectors";
      radios.logits.checked = mode === "logits";
      dkField.hidden = mode !== "logits";
      hint.textContent = mode === "logits" ? t.hintLogits : t.hintVectors;
    }

    function fail(err) {
      var message = t.errors[err.code];
      state.valid = false;
      state.error = err;
      error.textContent = (typeof message === "function" ? message(err) : message) + " " +
        t.errors.stale;
      textarea.setAttribute("aria-invalid", String(err.code !== "dk"));
      dkInput.setAttribute("aria-invalid", String(err.code === "dk"));
      root.classList.add("ae-row--stale");
    }

    function update(share) {
      state.repeat = REPEATS[Number(repeatInput.value)];
      var parsed = parse(textarea.value, state.mode);
      if (parsed.error) return fail(parsed.error);
      var dim;
      if (state.mode === "logits") {
        var dk = dkInput.value.trim() === "" ? NaN : Number(dkInput.value);
        if (!Number.isInteger(dk) || dk < 1 || dk > MAX_DIM) return fail({ code: "dk" });
        state.dk = dk;
        dim = dk;
      } else {
        dim = parsed.query.length;
      }
      var result = parsed.logits ? logitStatistics(parsed.logits, dim, state.repeat)
        : vectorStatistics(parsed.query, parsed.keys, state.repeat);
      state.valid = true;
      state.error = null;
      state.parsed = parsed;
      state.result = result;
      error.textContent = "";
      textarea.setAttribute("aria-invalid", "false");
      dkInput.setAttribute("aria-invalid", "false");
      root.classList.remove("ae-row--stale");
      repeatOut.textContent = t.repeatValue(state.repeat, result.dim);
      repeatInput.setAttribute("aria-valuetext", t.repeatValue(state.repeat, result.dim));
      rawLine.textContent = t.raw + ": " + result.raw.map(format).join(", ");
      drawBars(result);
      drawTables(result);
      drawCurve(parsed, dim, result);
      var params = new URLSearchParams(window.location.search);
      params.set("row", serialize(parsed));
      params.set("x", String(state.repeat));
      if (state.mode === "logits") {
        params.set("mode", "logits");
        params.set("dk", String(state.dk));
      } else {
        params.delete("mode");
        params.delete("dk");
      }
      var url = window.location.pathname + "?" + params.toString() + window.location.hash;
      link.setAttribute("href", url);
      if (share) window.history.replaceState(window.history.state, "", url);
      state.updates += 1;
      if (state.updates > 1) scheduleAnnouncement();
    }

    function scheduleAnnouncement() {
      if (announceTimer !== null) window.clearTimeout(announceTimer);
      announceTimer = window.setTimeout(function () {
        announceTimer = null;
        var r = state.result;
        announcer.textContent = t.summary(r.dim, SCALES.map(function (scale) {
          return scaleName[scale] + " " + format(r[scale].entropy);
        }).join(", "));
        state.announcements += 1;
      }, ANNOUNCE_DELAY_MS);
    }

    // The input: the default example, then what the URL carries (a bad one is shown with its
    // message over the default's result).
    var params = new URLSearchParams(window.location.search);
    var fromUrl = params.get("row");
    var mode = params.get("mode") === "logits" ? "logits" : "vectors";
    setMode(mode);
    textarea.value = mode === "logits" ? DEFAULT_LOGITS : DEFAULT_VECTORS;
    dkInput.value = String(state.dk);
    update(false);
    if (fromUrl !== null) {
      var repeatIndex = REPEATS.indexOf(Number(params.get("x")));
      repeatInput.value = String(Math.max(0, repeatIndex));
      if (mode === "logits" && params.get("dk") !== null) dkInput.value = params.get("dk");
      textarea.value = fromUrl.split(";").map(function (line) {
        return line.split(",").join(", ");
      }).join("\n");
      update(false);
    }

    textarea.addEventListener("input", function () { update(true); });
    dkInput.addEventListener("input", function () { update(true); });
    repeatInput.addEventListener("input", function () { update(true); });
    ["vectors", "logits"].forEach(function (name) {
      radios[name].addEventListener("change", function () {
        if (!radios[name].checked) return;
        var keep = textarea.value.trim() !== "" &&
          textarea.value !== (name === "logits" ? DEFAULT_VECTORS : DEFAULT_LOGITS);
        setMode(name);
        if (!keep) textarea.value = name === "logits" ? DEFAULT_LOGITS : DEFAULT_VECTORS;
        update(true);
      });
    });

    window.aeRow = {
      parse: parse,
      vectorStatistics: vectorStatistics,
      logitStatistics: logitStatistics,
      state: state,
      update: update,
    };
  }

  function init() {
    var root = document.querySelector(".ae-row");
    if (!root || root.getAttribute("data-ae-ready")) return;
    root.setAttribute("data-ae-ready", "true");
    build(root);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
