"""Every localized string the figures draw or describe, in one table: STRINGS[id][key][lang].

Korean uses the terms a Korean ML engineer uses (어텐션, 소프트맥스, 기울기, 임베딩 차원, 헤드,
스케일링). Keys shared by several figures live under "common".
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, dict[str, str]]] = {
    "common": {
        "none": {"ko": "스케일링 없음", "en": "no scaling"},
        "sqrt": {"ko": "÷√d", "en": "÷√d"},
        "unit": {"ko": "÷(3√d), 분산 1", "en": "÷(3√d), unit variance"},
        "dim": {"ko": "임베딩 차원 d (쿼리·키 폭)", "en": "dimension d (width of q and k)"},
        "seeds": {"ko": "시드 {n}개 평균 ± 표준편차", "en": "mean ± std over {n} seeds"},
    },
    "saturation-heatmaps": {
        "alt": {
            "ko": "무작위 쿼리와 키로 만든 소프트맥스 어텐션 가중치 히트맵 6개. 행은 d=10과 "
            "d=1024, 열은 스케일링 없음, ÷√d, ÷(3√d). d=1024에서 스케일링하지 않으면 각 행이 "
            "거의 한 칸(가중치 1)만 밝고, ÷√d는 덜 뾰족하며, ÷(3√d)는 거의 고르게 퍼진다.",
            "en": "Six heatmaps of softmax attention weights from random queries and keys. "
            "Rows are d=10 and d=1024; columns are no scaling, ÷√d and ÷(3√d). Unscaled at "
            "d=1024 each row lights up almost a single cell (weight near 1); ÷√d is less "
            "peaked, and ÷(3√d) is spread out almost evenly.",
        },
        "col_none": {"ko": "q·k (스케일링 없음)", "en": "q·k (no scaling)"},
        "col_sqrt": {"ko": "q·k / √d", "en": "q·k / √d"},
        "col_unit": {"ko": "q·k / (3√d)  (분산 1)", "en": "q·k / (3√d)  (unit variance)"},
        "row": {"ko": "d = {d}", "en": "d = {d}"},
        "query": {"ko": "쿼리 i", "en": "query i"},
        "key": {"ko": "키 j", "en": "key j"},
        "colorbar": {"ko": "어텐션 가중치 softmax(z)ᵢⱼ", "en": "attention weight softmax(z)ᵢⱼ"},
        "panel": {
            "ko": "행 최대 가중치 평균 {mw:.2f} · 엔트로피 {h:.2f}",
            "en": "mean max weight {mw:.2f} · entropy {h:.2f}",
        },
        "title": {
            "ko": "30×30 어텐션 가중치, A·Bᵀ, A·B ~ U[−3, 3] (시드 {seed})",
            "en": "30×30 attention weights, A·Bᵀ with A, B ~ U[−3, 3] (seed {seed})",
        },
    },
    "logit-variance": {
        "alt": {
            "ko": "로그-로그 그래프. 스케일링 없는 q·k의 분산은 d에 비례해 9d 직선을 따라 "
            "커지고, √d로 나눈 분산은 d와 관계없이 9에 머문다. 측정값이 이론선과 겹친다.",
            "en": "Log-log plot. The variance of unscaled q·k grows in proportion to d, along "
            "the line 9d, while the variance after dividing by √d stays at 9 for every d. "
            "The measured points sit on the theory lines.",
        },
        "title": {"ko": "로짓 분산은 d에 비례한다", "en": "The logit variance grows with d"},
        "ylabel": {"ko": "Var(q·k) (로그 스케일)", "en": "Var(q·k) (log scale)"},
        "measured_none": {"ko": "측정: q·k", "en": "measured: q·k"},
        "measured_sqrt": {"ko": "측정: q·k / √d", "en": "measured: q·k / √d"},
        "theory_none": {"ko": "이론: 9d", "en": "theory: 9d"},
        "theory_sqrt": {"ko": "이론: 9", "en": "theory: 9"},
    },
    "softmax-saturation": {
        "alt": {
            "ko": "두 패널. 왼쪽은 행 엔트로피, 오른쪽은 행 최대 가중치를 d에 대해 그렸다. "
            "스케일링이 없으면 d가 커질수록 엔트로피는 0으로, 최대 가중치는 1로 간다. "
            "÷√d와 ÷(3√d)는 d와 관계없이 평평하다.",
            "en": "Two panels: row entropy (left) and row max weight (right) against d. "
            "Without scaling, entropy falls to 0 and the max weight climbs to 1 as d grows. "
            "With ÷√d and ÷(3√d) both stay flat across d.",
        },
        "entropy": {"ko": "행 엔트로피 (nats)", "en": "row entropy (nats)"},
        "max_weight": {"ko": "행 최대 가중치", "en": "row max weight"},
        "uniform": {"ko": "균등: log {n}", "en": "uniform: log {n}"},
        "uniform_max": {"ko": "균등 분포: 1/{n}", "en": "uniform: 1/{n}"},
        "title": {
            "ko": "스케일링이 없으면 소프트맥스가 포화된다 (n = {n})",
            "en": "Without scaling the softmax saturates (n = {n})",
        },
    },
    "softmax-gradient": {
        "alt": {
            "ko": "두 패널. 왼쪽은 소프트맥스 야코비안의 프로베니우스 노름, 오른쪽은 로짓에 "
            "대한 기울기 노름을 d에 대해 로그 스케일로 그렸다. 스케일링이 없으면 둘 다 d가 "
            "커질수록 0에 가까워지고, 스케일링하면 평평하게 유지된다.",
            "en": "Two panels on a log scale against d: the Frobenius norm of the softmax "
            "Jacobian (left) and the norm of the gradient with respect to the logits (right). "
            "Without scaling both collapse towards 0 as d grows; with scaling they stay flat.",
        },
        "jacobian": {
            "ko": "‖J‖ (프로베니우스 노름)",
            "en": "‖J‖ (Frobenius norm)",
        },
        "grad": {"ko": "‖∂L/∂z‖ (측정값)", "en": "‖∂L/∂z‖ (measured)"},
        "title": {
            "ko": "포화된 소프트맥스는 기울기를 거의 넘기지 않는다",
            "en": "A saturated softmax passes almost no gradient",
        },
    },
    "softmax-curve": {
        "alt": {
            "ko": "두 로짓 [z, 0]의 소프트맥스 p = σ(z)와 그 도함수 p(1−p)를 z에 대해 그린 "
            "그래프. 도함수는 z = 0에서 최댓값 0.25이고, p가 0이나 1에 가까워지는 |z|가 큰 "
            "구간에서 0으로 떨어진다.",
            "en": "The softmax of two logits [z, 0], p = σ(z), and its derivative p(1−p) "
            "against z. The derivative peaks at 0.25 at z = 0 and falls to 0 for large |z|, "
            "where p approaches 0 or 1.",
        },
        "p": {"ko": "p = softmax([z, 0])₁", "en": "p = softmax([z, 0])₁"},
        "dp": {"ko": "∂p/∂z = p(1 − p)", "en": "∂p/∂z = p(1 − p)"},
        "zlabel": {"ko": "로짓 차이 z", "en": "logit gap z"},
        "saturated": {"ko": "포화: 기울기 < 0.01", "en": "saturated: gradient < 0.01"},
        "peak": {"ko": "최대 0.25 (z = 0)", "en": "max 0.25 at z = 0"},
        "title": {
            "ko": "p가 0이나 1에 가까우면 도함수는 0이 된다",
            "en": "Near p = 0 or p = 1 the derivative is 0",
        },
    },
    "temperature": {
        "alt": {
            "ko": "한 쿼리의 어텐션 가중치를 온도 τ를 바꿔 가며 그린 막대그래프 4개. τ = 1이면 "
            "한 키에 거의 모든 가중치가 몰리고, τ = √d_k(논문의 선택)와 τ = 3√d_k로 갈수록 "
            "퍼진다. 가장 큰 가중치를 받는 키는 모든 패널에서 같다.",
            "en": "Four bar charts of one query's attention weights as the temperature τ "
            "changes. At τ = 1 almost all weight goes to one key; at τ = √d_k (the paper's "
            "choice) and τ = 3√d_k it spreads out. The key with the largest weight is the "
            "same in every panel.",
        },
        "panel": {"ko": "τ = {label}", "en": "τ = {label}"},
        "paper": {"ko": "논문의 선택", "en": "the paper's choice"},
        "unit": {"ko": "분산 1", "en": "unit variance"},
        "key": {"ko": "키 j", "en": "key j"},
        "weight": {"ko": "가중치", "en": "weight"},
        "argmax": {"ko": "argmax는 그대로", "en": "same argmax"},
        "title": {
            "ko": "softmax(q·k / τ): 한 쿼리, d_k = {d}, 키 {n}개",
            "en": "softmax(q·k / τ): one query, d_k = {d}, {n} keys",
        },
    },
    "multi-head-diagram": {
        "alt": {
            "ko": "멀티 헤드 어텐션 구조도. Q, K, V(각 d_model = 512)가 헤드마다 다른 선형 "
            "레이어를 거쳐 폭 d_k = d_model / h = 64로 투영되고, h = 8개 헤드에서 각각 스케일드 "
            "닷-프로덕트 어텐션을 계산한 뒤, 결과를 이어 붙여(h·d_v = 512) 마지막 선형 레이어로 "
            "d_model로 되돌린다.",
            "en": "Diagram of multi-head attention. Q, K and V (each d_model = 512 wide) pass "
            "through a separate linear layer per head that projects them to width "
            "d_k = d_model / h = 64; each of the h = 8 heads runs scaled dot-product attention; "
            "the outputs are concatenated (h·d_v = 512) and a final linear layer maps them "
            "back to d_model.",
        },
        "linear": {"ko": "선형 (Linear)", "en": "Linear"},
        "sdpa": {
            "ko": "스케일드 닷-프로덕트 어텐션\nsoftmax(QKᵀ/√d_k)V",
            "en": "Scaled dot-product attention\nsoftmax(QKᵀ/√d_k)V",
        },
        "concat": {"ko": "이어 붙이기 (Concat)", "en": "Concat"},
        "output": {"ko": "출력 (Lq × d_model)", "en": "output (Lq × d_model)"},
        "heads": {"ko": "헤드 h = {h}개", "en": "h = {h} heads"},
        "widths": {
            "ko": "d_model = {dm} → 헤드마다 d_k = d_v = d_model / h = {dk}",
            "en": "d_model = {dm} → per head d_k = d_v = d_model / h = {dk}",
        },
        "concat_width": {"ko": "h·d_v = {w}", "en": "h·d_v = {w}"},
        "not_layers": {
            "ko": "d_model은 토큰 벡터의 폭이다. 쌓은 층 수(N = 6)도, 시퀀스 길이도 아니다.",
            "en": "d_model is the width of each token vector, not the layer count (N = 6) "
            "and not the sequence length.",
        },
        "title": {"ko": "멀티 헤드 어텐션 (Vaswani et al., 2017)", "en": "Multi-head attention"},
    },
}


# The training comparison (attention_explained/training.py). Its three figures share the legend
# and axis labels; each id keeps its own copy, because a figure's cache key covers only its own
# strings (and "common").
_TRAINING_SHARED: dict[str, dict[str, str]] = {
    "none": {"ko": "스케일링 없음", "en": "no scaling"},
    "sqrt": {"ko": "÷√d_k", "en": "÷√d_k"},
    "qknorm": {"ko": "QK-norm (g 학습)", "en": "QK-norm (learned g)"},
    "panel": {"ko": "d_k = {d}", "en": "d_k = {d}"},
    "step": {"ko": "학습 스텝", "en": "training step"},
    "band": {
        "ko": "시드 {n}개의 중앙값, 띠: 최소–최대",
        "en": "median of {n} seeds, band: min–max",
    },
}
STRINGS.update(
    {
        "training-loss": {
            **_TRAINING_SHARED,
            "alt": {
                "ko": "세 패널(d_k = 16, 128, 1024)에 학습 스텝에 따른 손실을 스케일링 방식마다 "
                "그렸다. d_k = 16에서는 세 방식이 거의 함께 떨어진다. d_k가 커질수록 스케일링 "
                "없는 어텐션의 손실은 늦게 떨어지고 더 높은 곳에서 멈춘다. 끝에서 가장 낮은 것은 "
                "QK-norm, 그다음이 ÷√d_k이다.",
                "en": "Three panels (d_k = 16, 128, 1024) of training loss against step for each "
                "scaling. At d_k = 16 the three fall almost together. As d_k grows, the loss of "
                "unscaled attention falls later and levels off higher. QK-norm ends lowest, "
                "÷√d_k next.",
            },
            "ylabel": {"ko": "손실", "en": "loss"},
            "title": {
                "ko": "학습 손실: d_k가 크면 스케일링 없는 어텐션이 뒤처진다",
                "en": "Training loss: without scaling, attention lags at large d_k",
            },
        },
        "training-entropy": {
            **_TRAINING_SHARED,
            "alt": {
                "ko": "세 패널(d_k = 16, 128, 1024)에 어텐션 행 엔트로피를 학습 스텝에 대해 "
                "그렸다. ÷√d_k와 QK-norm은 최댓값 log 16 가까이에서 시작해 학습하면서 천천히 "
                "내려온다. 스케일링 없는 어텐션은 처음부터 낮고(d_k가 클수록 더 낮다) 곧 0에 "
                "붙는다.",
                "en": "Three panels (d_k = 16, 128, 1024) of the attention rows' entropy against "
                "step. ÷√d_k and QK-norm start near the maximum, log 16, and come down slowly "
                "as they learn. Unscaled attention starts low, lower for larger d_k, and soon "
                "sits at 0.",
            },
            "ylabel": {"ko": "행 엔트로피 (nats)", "en": "row entropy (nats)"},
            "uniform": {"ko": "균등: log {n}", "en": "uniform: log {n}"},
            "title": {
                "ko": "행 엔트로피: 스케일링이 없으면 처음부터 포화된다",
                "en": "Row entropy: without scaling attention starts saturated",
            },
        },
        "training-gradient": {
            **_TRAINING_SHARED,
            "alt": {
                "ko": "세 패널(d_k = 16, 128, 1024)에 W_Q와 W_K의 기울기 노름을 로그 축으로 "
                "그렸다. 스케일링 없는 어텐션은 처음에는 다른 두 방식보다 기울기가 크다. d_k = "
                "1024에서는 학습이 진행되면서 크게 요동치며 몇 자릿수 아래로 떨어진다. ÷√d_k와 "
                "QK-norm은 비교적 평평하게 유지된다.",
                "en": "Three panels (d_k = 16, 128, 1024) of the gradient norm of W_Q and W_K on a "
                "log scale. Unscaled attention starts with a larger gradient than the other "
                "two. At d_k = 1024 it then swings wildly and drops by orders of magnitude as "
                "training goes on. ÷√d_k and QK-norm stay comparatively flat.",
            },
            "ylabel": {
                "ko": "W_Q, W_K의 기울기 노름 (로그 축)",
                "en": "gradient norm of W_Q, W_K (log scale)",
            },
            "title": {
                "ko": "쿼리·키 투영의 기울기",
                "en": "The gradient reaching the query and key projections",
            },
        },
    }
)


# After training (attention_explained/after_training.py, docs/after-training.md).
_AFTER_SHARED: dict[str, dict[str, str]] = {
    "none": {"ko": "스케일링 없음", "en": "no scaling"},
    "sqrt": {"ko": "÷√d_k", "en": "÷√d_k"},
    "qknorm": {"ko": "QK 정규화 (g 학습)", "en": "QK-norm (learned g)"},
    "band": {
        "ko": "AdamW, 시드 {n}개의 중앙값, 띠: 최소–최대",
        "en": "AdamW, median of {n} seeds, band: min–max",
    },
}
STRINGS.update(
    {
        "after-lr-sensitivity": {
            **_AFTER_SHARED,
            "alt": {
                "ko": "두 패널(헤드 차원 d_k가 작을 때와 클 때)에 학습률(로그 축)에 따른 최종 "
                "손실을 스케일링 방식마다 그렸다. ÷√d_k와 스케일링 없음은 좋은 학습률 구간이 "
                "좁은 U자 모양이고, 학습률이 높으면 손실이 크게 오른다. d_k가 크면 ÷√d_k의 "
                "좋은 구간이 더 낮은 학습률 쪽으로 옮겨 간다. QK 정규화는 모든 학습률에서 "
                "손실이 낮고 거의 평평하다.",
                "en": "Two panels (a small and a large head dimension d_k) of the final loss "
                "against the learning rate (log axis) for each scaling. ÷√d_k and no scaling "
                "make a U with a narrow range of good learning rates, and their loss shoots up "
                "at high rates; at the larger d_k the good range of ÷√d_k moves to lower "
                "rates. QK-norm is low and nearly flat at every learning rate.",
            },
            "panel": {"ko": "d_k = {d}", "en": "d_k = {d}"},
            "lr": {"ko": "학습률 (로그 축)", "en": "learning rate (log scale)"},
            "ylabel": {
                "ko": "최종 손실 (마지막 {n}스텝 평균)",
                "en": "final loss (mean of the last {n} steps)",
            },
            "title": {
                "ko": "학습률 민감도: 최종 손실과 학습률",
                "en": "Learning-rate sensitivity: final loss against learning rate",
            },
        },
        "after-max-logit": {
            **_AFTER_SHARED,
            "alt": {
                "ko": "2×2 패널. 위 줄은 학습 스텝에 따른 가장 큰 로짓(로그 축), 아래 줄은 "
                "어텐션 엔트로피이고, 왼쪽은 낮은 학습률, 오른쪽은 높은 학습률이다. 높은 "
                "학습률에서 ÷√d_k와 스케일링 없음의 가장 큰 로짓은 수천까지 치솟고 엔트로피는 "
                "0으로 무너진다. QK 정규화의 로짓은 두 학습률 모두에서 수십 아래에 머문다.",
                "en": "Two-by-two panels: the largest logit against step (log axis) on top, "
                "the attention entropy below; a low learning rate on the left, a high one on "
                "the right. At the high rate the largest logit of ÷√d_k and of no scaling "
                "shoots up into the thousands and the entropy collapses to 0. QK-norm's "
                "logits stay below a few tens at both rates.",
            },
            "panel": {"ko": "학습률 {lr}", "en": "learning rate {lr}"},
            "step": {"ko": "학습 스텝", "en": "training step"},
            "ylabel_logit": {
                "ko": "배치에서 가장 큰 로짓 (로그 축)",
                "en": "largest logit in the batch (log scale)",
            },
            "ylabel_entropy": {"ko": "행 엔트로피 (내트)", "en": "row entropy (nats)"},
            "uniform": {"ko": "균등: log {n}", "en": "uniform: log {n}"},
            "title": {
                "ko": "학습률별 가장 큰 로짓과 엔트로피 (d_k = {d})",
                "en": "At a high learning rate logits grow and entropy collapses (d_k = {d})",
            },
        },
        "after-spread": {
            "alt": {
                "ko": "세 패널. 왼쪽은 ÷√d_k로 학습한 모델, 가운데는 ÷d_k(μP)로 학습한 모델의 "
                "로짓 표준편차를 헤드 차원 d_k에 대해 로그-로그로 그렸다(점선: 학습 전, 실선: "
                "학습 후, 범례에 지수 a). ÷√d_k는 학습 전에는 평평하지만 학습 후에는 d_k가 "
                "클수록 커진다. ÷d_k는 학습 전에는 d_k가 클수록 작아지고, 학습 후에는 평평하다. "
                "오른쪽은 쿼리와 그 정답 키의 코사인으로, 학습 전에는 0 근처, 학습 후에는 두 "
                "모델 모두 0.5보다 크다.",
                "en": "Three panels. Left and middle: the logit standard deviation against the "
                "head dimension d_k, log-log, for a model trained with ÷√d_k and one trained "
                "with ÷d_k (μP); dashed before training, solid after, slopes in the legend. "
                "÷√d_k is flat before training but grows with d_k after it. ÷d_k shrinks with "
                "d_k before training and is flat after it. Right: the cosine between a query "
                "and its target key, near 0 before training and above 0.5 after it for both.",
            },
            "sqrt": {"ko": "÷√d_k", "en": "÷√d_k"},
            "mup": {"ko": "÷d_k (μP)", "en": "÷d_k (μP)"},
            "init": {"ko": "학습 전: {a}", "en": "before training: {a}"},
            "final": {"ko": "학습 후: {a}", "en": "after training: {a}"},
            "slope": {"ko": "지수 a (표준편차 ∝ d_k^a)", "en": "slope a (std ∝ d_k^a)"},
            "cos_init": {"ko": "{s}, 학습 전", "en": "{s}, before"},
            "cos_final": {"ko": "{s}, 학습 후", "en": "{s}, after"},
            "panel_sqrt": {
                "ko": "÷√d_k로 학습: 로짓 표준편차",
                "en": "trained with ÷√d_k: logit std",
            },
            "panel_mup": {
                "ko": "÷d_k(μP)로 학습: 로짓 표준편차",
                "en": "trained with ÷d_k (μP): logit std",
            },
            "panel_cos": {"ko": "쿼리–정답 키 코사인", "en": "cosine of query and target key"},
            "ylabel": {"ko": "로짓 표준편차 (로그 축)", "en": "logit std (log scale)"},
            "dk": {"ko": "헤드 차원 d_k", "en": "head dimension d_k"},
            "title": {
                "ko": "로짓의 퍼짐: 학습 전과 후 (시드 {n}개의 중앙값)",
                "en": "The logit spread before and after training (median of {n} seeds)",
            },
        },
    }
)


def text(figure_id: str, key: str, lang: str, **fields) -> str:
    """The string ``key`` of ``figure_id`` (or of "common") in ``lang``, formatted.

    Plain text only: matplotlib's mathtext cannot fall back to a Hangul font, so a label
    that mixes $…$ with Korean would lose its Hangul.
    """
    entry = STRINGS.get(figure_id, {}).get(key) or STRINGS["common"][key]
    return entry[lang].format(**fields) if fields else entry[lang]


def alt_text(figure_id: str, lang: str) -> str:
    return STRINGS[figure_id]["alt"][lang]
