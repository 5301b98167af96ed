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
      scaleUnit: "÷σ_qσ_k√" + DK + " (분산 1)",
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
      logitStd: "로짓 표준편차",
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
      scaleUnit: "÷σ_qσ_k√" + DK + " (unit variance)",
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
      logitStd: "Logit std",
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
    var lang = (root.getAttribute("data-lang") || document.documentElement.lang || "en")
      .slice(0, 2).toLowerCase();
    var t = STRINGS[lang] || STRINGS.en;
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
      if (state.scale === "unit" && m[0] !== 0) text += " (" + t.meanNonZero + ")";
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
