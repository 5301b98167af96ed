"""Every localized string the figures draw or describe, in one table: STRINGS[id][key][lang].

Korean follows the term sheet in CONTRIBUTING.md (어텐션, 소프트맥스, 기울기, 헤드 차원, 밸류,
균등분포, QK 정규화, 내트 …). Keys shared by several figures live under "common".

Math is matplotlib mathtext (``$d_k$``, ``$W^Q$``, bold vectors ``$\\mathbf{q}$``). A line
that mixes Hangul with ``$…$`` must be drawn with ``style.mixed_font(label)``, and its minus
signs go inside ``$…$``. Strings formatted with fields double the braces of their math.
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, dict[str, str]]] = {
    "common": {
        "none": {"ko": "스케일링 없음", "en": "no scaling"},
        "sqrt": {"ko": "÷√d", "en": "÷√d"},
        "unit": {"ko": "÷(3√d), 분산 1", "en": "÷(3√d), unit variance"},
        "dim": {"ko": "차원 $d$ (= $d_k$)", "en": "dimension $d$ (= $d_k$)"},
        "seeds": {"ko": "시드 {n}개 평균 ± 표준편차", "en": "mean ± std over {n} seeds"},
    },
    "saturation-heatmaps": {
        "alt": {
            "ko": "무작위 쿼리와 키로 만든 소프트맥스 어텐션 가중치 히트맵 6개. 행은 d=10과 "
            "d=1024, 열은 스케일링 없음, ÷√d, ÷(3√d)이고, 세로축은 쿼리 i, 가로축은 키 j다. "
            "d=1024에서 스케일링하지 않으면 각 행이 거의 한 칸(가중치 1에 가까움)만 밝고, "
            "÷√d는 덜 뾰족하며, ÷(3√d)는 각 행의 가중치가 여러 키에 퍼진다.",
            "en": "Six heatmaps of softmax attention weights from random queries and keys. "
            "Rows are d=10 and d=1024; columns are no scaling, ÷√d and ÷(3√d); the vertical "
            "axis is query i, the horizontal axis key j. Unscaled at d=1024 each row lights "
            "up almost a single cell (weight near 1); ÷√d is less peaked, and ÷(3√d) spreads "
            "each row's weight over many keys.",
        },
        "col_none": {
            "ko": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j$ (스케일링 없음)",
            "en": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j$ (no scaling)",
        },
        "col_sqrt": {
            "ko": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\sqrt{d}$",
            "en": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\sqrt{d}$",
        },
        "col_unit": {
            "ko": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\,(3\\sqrt{d})$ (분산 1)",
            "en": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\,(3\\sqrt{d})$ (unit variance)",
        },
        "row": {"ko": "$d = {d}$", "en": "$d = {d}$"},
        "query": {"ko": "쿼리 $i$", "en": "query $i$"},
        "key": {"ko": "키 $j$", "en": "key $j$"},
        "colorbar": {"ko": "어텐션 가중치 $p_{ij}$", "en": "attention weight $p_{ij}$"},
        "panel": {
            "ko": "행 최대 가중치 평균 {mw:.2f}\n엔트로피 {h:.2f} 내트",
            "en": "mean row max weight {mw:.2f}\nentropy {h:.2f} nats",
        },
        "title": {
            "ko": "30×30 어텐션 가중치: A·Bᵀ, A, B ~ U[−3, 3] (시드 {seed})",
            "en": "30×30 attention weights: A·Bᵀ with A, B ~ U[−3, 3] (seed {seed})",
        },
    },
    "logit-histograms": {
        "alt": {
            "ko": "로짓 히스토그램 4개. 행은 d=10과 d=1024, 열은 스케일링 없음과 ÷√d이고, 같은 "
            "열의 두 패널은 가로축을 공유한다. 스케일링하지 않으면 d=1024의 로짓이 d=10보다 약 "
            "10배 넓게 퍼진다(이론 표준편차 3√d: 96과 9.5). √d로 나누면 두 히스토그램의 폭이 "
            "같아지고 표준편차는 둘 다 약 3이다. 측정한 표준편차는 네 패널 모두 이론값과 3% "
            "안에서 맞는다.",
            "en": "Four histograms of logits. Rows are d=10 and d=1024, columns are no scaling "
            "and ÷√d, and the two panels of a column share their horizontal axis. Unscaled, "
            "the logits at d=1024 spread about 10 times wider than at d=10 (theoretical "
            "standard deviation 3√d: 96 and 9.5). Divided by √d the two histograms have the "
            "same width, both with a standard deviation of about 3. In all four panels the "
            "measured standard deviation is within 3% of the theory.",
        },
        "col_raw": {
            "ko": "$\\mathbf{q}\\cdot\\mathbf{k}$ (스케일링 없음)",
            "en": "$\\mathbf{q}\\cdot\\mathbf{k}$ (no scaling)",
        },
        "col_sqrt": {
            "ko": "$\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d}$",
            "en": "$\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d}$",
        },
        "row": {"ko": "$d = {d}$", "en": "$d = {d}$"},
        "sigma_raw": {"ko": "3√d", "en": "3√d"},
        "sigma_sqrt": {"ko": "3", "en": "3"},
        "measured": {
            "ko": "표준편차\n측정 {std:.2f}\n이론 {theory} = {sigma:.2f}",
            "en": "std\nmeasured {std:.2f}\ntheory {theory} = {sigma:.2f}",
        },
        "xlabel": {"ko": "로짓", "en": "logit"},
        "title": {
            "ko": "로짓의 퍼짐은 √d에 비례하고, ÷√d 뒤에는 d와 상관없다",
            "en": "The spread of the logits grows with √d; ÷√d takes it away",
        },
        "subtitle": {
            "ko": "A, B ~ U[−3, 3] 독립, {n}×{n} 로짓 × 시드 {seeds}개 = 패널마다 {total}개\n"
            "점선: 이론 표준편차 ±3√d (÷√d 뒤에는 ±3)",
            "en": "A, B ~ U[−3, 3] independent; {n}×{n} logits × {seeds} seeds = {total} per "
            "panel\ndashed: theoretical standard deviation ±3√d (±3 after ÷√d)",
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
        "ylabel": {
            "ko": "$\\mathrm{Var}(\\mathbf{q}\\cdot\\mathbf{k})$ (로그 축)",
            "en": "$\\mathrm{Var}(\\mathbf{q}\\cdot\\mathbf{k})$ (log scale)",
        },
        "measured_none": {
            "ko": "측정: $\\mathbf{q}\\cdot\\mathbf{k}$",
            "en": "measured: $\\mathbf{q}\\cdot\\mathbf{k}$",
        },
        "measured_sqrt": {
            "ko": "측정: $\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d}$",
            "en": "measured: $\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d}$",
        },
        "theory_none": {"ko": "이론: $9d$", "en": "theory: $9d$"},
        "theory_sqrt": {"ko": "이론: $9$", "en": "theory: $9$"},
    },
    "softmax-saturation": {
        "alt": {
            "ko": "두 패널. 왼쪽은 행 엔트로피, 오른쪽은 행 최대 가중치를 d에 대해 그렸다. "
            "스케일링이 없으면 d가 커질수록 엔트로피는 0으로, 최대 가중치는 1로 다가간다. "
            "÷√d와 ÷(3√d)는 d가 10을 넘으면 거의 평평하다. d = 10과 d = 1024 사이에서 두 값 "
            "모두 10% 넘게 변하지 않는다. d가 그보다 작을 때는 ÷√d도 d에 따라 달라진다.",
            "en": "Two panels: row entropy (left) and row max weight (right) against d. "
            "Without scaling, entropy falls to 0 and the max weight climbs to 1 as d grows. "
            "With ÷√d and ÷(3√d) both are nearly flat once d is past about 10: from d = 10 "
            "to d = 1024 neither changes by more than 10%. Below that, ÷√d still varies "
            "with d.",
        },
        "entropy": {"ko": "행 엔트로피 (내트)", "en": "row entropy (nats)"},
        "max_weight": {"ko": "행 최대 가중치", "en": "row max weight"},
        "uniform": {"ko": "균등분포: log {n}", "en": "uniform: log {n}"},
        "uniform_max": {"ko": "균등분포: 1/{n}", "en": "uniform: 1/{n}"},
        "title": {
            "ko": "스케일링이 없으면 소프트맥스가 포화된다 (n = {n})",
            "en": "Without scaling the softmax saturates (n = {n})",
        },
    },
    "softmax-gradient": {
        "alt": {
            "ko": "두 패널. 왼쪽은 소프트맥스 야코비안의 프로베니우스 노름, 오른쪽은 로짓에 "
            "대한 기울기 노름을 d에 대해 로그 축으로 그렸다. 스케일링이 없으면 둘 다 d가 "
            "커질수록 0에 가까워지고, 스케일링하면 평평하게 유지된다.",
            "en": "Two panels on a log scale against d: the Frobenius norm of the softmax "
            "Jacobian (left) and the norm of the gradient with respect to the logits (right). "
            "Without scaling both collapse towards 0 as d grows; with scaling they stay flat.",
        },
        "jacobian": {
            "ko": "$\\|J\\|_F$ (프로베니우스 노름)",
            "en": "$\\|J\\|_F$ (Frobenius norm)",
        },
        "grad": {
            "ko": "$\\|\\partial L/\\partial z\\|$ (측정값)",
            "en": "$\\|\\partial L/\\partial z\\|$ (measured)",
        },
        "title": {
            "ko": "포화된 소프트맥스는 기울기를 거의 넘기지 않는다",
            "en": "A saturated softmax passes almost no gradient",
        },
    },
    "softmax-curve": {
        "alt": {
            "ko": "두 로짓 [z, 0]의 소프트맥스 p = σ(z)와 그 도함수 p(1−p)를 z에 대해 그린 "
            "그래프. 도함수는 z = 0에서 최댓값 0.25이고, |z|가 커져 p가 0이나 1에 가까워질수록 "
            "0에 가까워진다.",
            "en": "The softmax of two logits [z, 0], p = σ(z), and its derivative p(1−p) "
            "against z. The derivative peaks at 0.25 at z = 0 and approaches 0 as |z| grows "
            "and p approaches 0 or 1.",
        },
        "p": {
            "ko": "$p = \\mathrm{softmax}([z, 0])_1$",
            "en": "$p = \\mathrm{softmax}([z, 0])_1$",
        },
        "dp": {
            "ko": "$\\partial p/\\partial z = p(1 - p)$",
            "en": "$\\partial p/\\partial z = p(1 - p)$",
        },
        "zlabel": {"ko": "로짓 차이 $z$", "en": "logit gap $z$"},
        "saturated": {"ko": "포화: $p(1 - p) < 0.01$", "en": "saturated: $p(1 - p) < 0.01$"},
        "peak": {"ko": "최댓값 0.25 ($z = 0$)", "en": "max 0.25 at $z = 0$"},
        "title": {
            "ko": "p가 0이나 1에 가까워질수록 도함수는 0에 가까워진다",
            "en": "As p approaches 0 or 1, the derivative approaches 0",
        },
    },
    "attention-graph": {
        "alt": {
            "ko": "쿼리 하나의 어텐션 계산 그래프. 쿼리 q와 키 k_j에서 로짓 z_j = q·k_j/√d_k를 "
            "만들고, 소프트맥스(야코비안 J가 있는 곳)를 지나 가중치 p_j가 되며, 출력 "
            "o = Σ p_j v_j에서 밸류 v_j와 만난다. 점선 화살표는 손실 L에서 거슬러 오는 "
            "기울기다. 쿼리와 키로 가는 기울기는 J를 지나고, 밸류로 가는 기울기 "
            "p_j ∂L/∂o는 J를 지나지 않는다.",
            "en": "Computation graph of attention for one query. The query q and the keys k_j "
            "give the logits z_j = q·k_j/√d_k, the softmax (where the Jacobian J sits) turns "
            "them into the weights p_j, and the output o = Σ p_j v_j brings in the values "
            "v_j. Dashed arrows are the gradient flowing back from the loss L. The gradient "
            "to the query and the keys passes through J; the gradient to the values, "
            "p_j ∂L/∂o, does not.",
        },
        "query": {"ko": "쿼리", "en": "query"},
        "keys": {"ko": "키", "en": "keys"},
        "logits": {"ko": "로짓", "en": "logits"},
        "softmax": {"ko": "소프트맥스", "en": "softmax"},
        "jacobian": {"ko": "야코비안 $J$", "en": "Jacobian $J$"},
        "weights": {"ko": "가중치", "en": "weights"},
        "output": {"ko": "출력", "en": "output"},
        "values": {"ko": "밸류", "en": "values"},
        "loss": {"ko": "손실", "en": "loss"},
        "forward": {"ko": "순전파", "en": "forward pass"},
        "through": {"ko": "$J$를 지나는 기울기", "en": "gradient through $J$"},
        "skips": {"ko": "$J$를 지나지 않는 기울기", "en": "gradient that skips $J$"},
        "note": {
            "ko": "소프트맥스가 포화되면 $J \\approx 0$이라 쿼리·키로 가는 기울기는 사라지지만,\n"
            "밸류로 가는 기울기는 $J$와 상관없다.",
            "en": "A saturated softmax has $J \\approx 0$: the gradient to the query and keys\n"
            "vanishes, but the one to the values does not depend on $J$.",
        },
        "title": {
            "ko": "쿼리·키로 가는 기울기만 야코비안 $J$를 지난다",
            "en": "Only the gradient to the query and keys passes through $J$",
        },
    },
    "temperature": {
        "alt": {
            "ko": "한 쿼리의 어텐션 가중치를 온도 τ를 바꿔 가며 그린 막대그래프 4개. τ = 1"
            "(스케일링 없음)이면 한 키에 거의 모든 가중치가 몰리고, τ = √d_k(논문의 선택)와 "
            "τ = 3√d_k로 갈수록 퍼진다. 가장 큰 가중치를 받는 키는 모든 패널에서 같다.",
            "en": "Four bar charts of one query's attention weights as the temperature τ "
            "changes. At τ = 1 (no scaling) almost all weight goes to one key; at τ = √d_k "
            "(the paper's choice) and τ = 3√d_k it spreads out. The key with the largest "
            "weight is the same in every panel.",
        },
        "panel": {"ko": "$\\tau = {label}$", "en": "$\\tau = {label}$"},
        "none": {"ko": "스케일링 없음", "en": "no scaling"},
        "paper": {"ko": "논문의 선택", "en": "the paper's choice"},
        "unit": {"ko": "분산 1", "en": "unit variance"},
        "key": {"ko": "키 $j$", "en": "key $j$"},
        "weight": {"ko": "가중치", "en": "weight"},
        "argmax": {"ko": "τ = 1과 같은 키", "en": "same key as τ = 1"},
        "title": {
            "ko": "쿼리 하나의 가중치 "
            "$\\mathrm{{softmax}}(\\mathbf{{q}}\\cdot\\mathbf{{k}}_j/\\tau)$, "
            "$d_k = {d}$, 키 {n}개",
            "en": "One query's weights "
            "$\\mathrm{{softmax}}(\\mathbf{{q}}\\cdot\\mathbf{{k}}_j/\\tau)$, "
            "$d_k = {d}$, {n} keys",
        },
    },
    "multi-head-diagram": {
        "alt": {
            "ko": "멀티 헤드 어텐션 구조도. Q(L_q × d_model), K와 V(L_k × d_model, "
            "d_model = 512)가 헤드마다 다른 투영 W^Q_i, W^K_i, W^V_i를 거쳐 헤드 차원 "
            "d_k = d_model / h = 64로 줄고, h = 8개 헤드에서 각각 스케일드 닷-프로덕트 "
            "어텐션을 계산한 뒤, 결과를 이어 붙여(h·d_v = 512) 마지막 투영 W^O로 "
            "d_model로 되돌린다.",
            "en": "Diagram of multi-head attention. Q (L_q × d_model), K and V (L_k × d_model, "
            "d_model = 512) pass through a separate projection per head, W^Q_i, W^K_i, W^V_i, "
            "down to the head dimension d_k = d_model / h = 64; each of the h = 8 heads runs "
            "scaled dot-product attention; the outputs are concatenated (h·d_v = 512) and a "
            "final projection W^O maps them back to d_model.",
        },
        "linear": {"ko": "선형\n${w}$", "en": "Linear\n${w}$"},
        "sdpa": {
            "ko": "스케일드 닷-프로덕트 어텐션\n$\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})\\,V$",
            "en": "Scaled dot-product attention\n$\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})\\,V$",
        },
        "concat": {"ko": "이어 붙이기", "en": "Concat"},
        "output": {
            "ko": "출력 ($L_q \\times d_{\\mathrm{model}}$)",
            "en": "output ($L_q \\times d_{\\mathrm{model}}$)",
        },
        "heads": {"ko": "헤드 $h = {h}$개", "en": "$h = {h}$ heads"},
        "widths": {
            "ko": "임베딩 차원 $d_{{\\mathrm{{model}}}} = {dm}$ → 헤드 차원 "
            "$d_k = d_v = d_{{\\mathrm{{model}}}}/h = {dk}$",
            "en": "embedding dimension $d_{{\\mathrm{{model}}}} = {dm}$ → head dimension "
            "$d_k = d_v = d_{{\\mathrm{{model}}}}/h = {dk}$",
        },
        "concat_width": {"ko": "$h \\cdot d_v = {w}$", "en": "$h \\cdot d_v = {w}$"},
        "not_layers": {
            "ko": "$d_{\\mathrm{model}}$은 토큰 벡터 하나의 길이다. 쌓은 층 수($N = 6$)도, "
            "시퀀스 길이 $L_q$, $L_k$도 아니다.",
            "en": "$d_{\\mathrm{model}}$ is the width of each token vector, not the layer count "
            "($N = 6$) and not the sequence length $L_q$, $L_k$.",
        },
        "title": {
            "ko": "멀티 헤드 어텐션 (Vaswani et al., 2017)",
            "en": "Multi-head attention (Vaswani et al., 2017)",
        },
    },
}


# The training comparison (attention_explained/training.py). Its three figures share the legend
# and axis labels; each id keeps its own copy, because a figure's cache key covers only its own
# strings (and "common").
_TRAINING_SHARED: dict[str, dict[str, str]] = {
    "none": {"ko": "스케일링 없음", "en": "no scaling"},
    "sqrt": {"ko": "$\\div\\sqrt{d_k}$", "en": "$\\div\\sqrt{d_k}$"},
    "qknorm": {"ko": "QK 정규화 (g 학습)", "en": "QK-norm (learned g)"},
    "panel": {"ko": "$d_k = {d}$", "en": "$d_k = {d}$"},
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
                "그렸다. 세 방식 모두 학습하지만, 스케일링 없는 어텐션의 마지막 손실은 d_k가 "
                "커질수록 높아진다. 모든 d_k에서 마지막 손실이 가장 낮은 것은 QK 정규화, "
                "그다음이 ÷√d_k, 가장 높은 것이 스케일링 없음이다.",
                "en": "Three panels (d_k = 16, 128, 1024) of training loss against step for each "
                "scaling. All three learn, but the final loss of unscaled attention is higher "
                "the larger d_k is. At every d_k QK-norm ends lowest, ÷√d_k next and no "
                "scaling highest.",
            },
            "ylabel": {"ko": "손실", "en": "loss"},
            "title": {
                "ko": "학습 손실: $d_k$가 크면 스케일링 없는 어텐션이 뒤처진다",
                "en": "Training loss: without scaling, attention lags at large $d_k$",
            },
        },
        "training-entropy": {
            **_TRAINING_SHARED,
            "alt": {
                "ko": "세 패널(d_k = 16, 128, 1024)에 어텐션 행 엔트로피(내트)를 학습 스텝에 "
                "대해 그렸다. ÷√d_k와 QK 정규화는 최댓값 log 16의 80%가 넘는 곳에서 시작해 "
                "학습하면서 천천히 내려온다. 스케일링 없는 어텐션은 처음부터 낮고(d_k가 클수록 "
                "더 낮다) 끝에는 0에 가깝다.",
                "en": "Three panels (d_k = 16, 128, 1024) of the attention rows' entropy (nats) "
                "against step. ÷√d_k and QK-norm start above 80% of the maximum, log 16, and "
                "come down slowly as they learn. Unscaled attention starts low, lower for larger "
                "d_k, and ends near 0.",
            },
            "ylabel": {"ko": "행 엔트로피 (내트)", "en": "row entropy (nats)"},
            "uniform": {"ko": "균등분포: log {n}", "en": "uniform: log {n}"},
            "title": {
                "ko": "행 엔트로피: 스케일링이 없으면 처음부터 포화된다",
                "en": "Row entropy: without scaling attention starts saturated",
            },
        },
        "training-gradient": {
            **_TRAINING_SHARED,
            "alt": {
                "ko": "세 패널(d_k = 16, 128, 1024)에 W^Q와 W^K의 기울기 노름을 로그 축으로 "
                "그렸다. 스케일링 없는 어텐션은 처음에는 다른 두 방식보다 기울기가 크다. d_k = "
                "1024에서는 학습이 진행되면서 크게 요동치며 몇 자릿수 아래로 떨어진다. ÷√d_k와 "
                "QK 정규화는 비교적 평평하게 유지된다.",
                "en": "Three panels (d_k = 16, 128, 1024) of the gradient norm of W^Q and W^K on "
                "a log scale. Unscaled attention starts with a larger gradient than the other "
                "two. At d_k = 1024 it then swings wildly and drops by orders of magnitude as "
                "training goes on. ÷√d_k and QK-norm stay comparatively flat.",
            },
            "ylabel": {
                "ko": "$W^Q$, $W^K$의 기울기 노름 (로그 축)",
                "en": "gradient norm of $W^Q$, $W^K$ (log scale)",
            },
            "title": {
                "ko": "쿼리·키 투영의 기울기",
                "en": "The gradient reaching the query and key projections",
            },
        },
    }
)


# The measured results each figure's alt text states, as claims in attention_explained/claims.py.
# The build checks them wherever it inserts the figure, and stops naming figure and page if one
# fails (attention_explained/sitebuild/figure_claims.py). An alt text that states a measured
# result lists its claim here; statements that are mathematics, not measurement, need none.
ALT_CLAIMS: dict[str, tuple[str, ...]] = {
    "saturation-heatmaps": ("figures.heatmaps_peaked_unscaled_spread_scaled",),
    "logit-histograms": ("figures.logit_std_near_theory",),
    "logit-variance": ("figures.logit_variance_on_theory",),
    "softmax-saturation": ("figures.saturation_unscaled_saturates_scaled_flat",),
    "softmax-gradient": ("figures.gradient_unscaled_collapses_scaled_flat",),
    "training-loss": ("figures.training_loss_order",),
    "training-entropy": ("figures.training_entropy_unscaled_low",),
    "training-gradient": ("figures.training_gradient_unscaled_large_then_vanishes",),
}
# After training (attention_explained/after_training.py, docs/after-training.md).
_AFTER_SHARED: dict[str, dict[str, str]] = {
    "none": {"ko": "스케일링 없음", "en": "no scaling"},
    "sqrt": {"ko": "÷√dₖ", "en": "÷√dₖ"},
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
            "panel": {"ko": "dₖ = {d}", "en": "dₖ = {d}"},
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
                "0 가까이 무너진다. QK 정규화의 로짓은 두 학습률 모두에서 수십 아래에 머문다.",
                "en": "Two-by-two panels: the largest logit against step (log axis) on top, "
                "the attention entropy below; a low learning rate on the left, a high one on "
                "the right. At the high rate the largest logit of ÷√d_k and of no scaling "
                "shoots up into the thousands and the entropy collapses close to 0. QK-norm's "
                "logits stay below a few tens at both rates.",
            },
            "panel": {"ko": "학습률 {lr}", "en": "learning rate {lr}"},
            "step": {"ko": "학습 스텝", "en": "training step"},
            "ylabel_logit": {
                "ko": "배치에서 가장 큰 로짓 (로그 축)",
                "en": "largest logit in the batch (log scale)",
            },
            "ylabel_entropy": {"ko": "행 엔트로피 (내트)", "en": "row entropy (nats)"},
            "uniform": {"ko": "균등분포: log {n}", "en": "uniform: log {n}"},
            "title": {
                "ko": "학습률별 가장 큰 로짓과 엔트로피 (dₖ = {d})",
                "en": "Largest logit and entropy by learning rate (dₖ = {d})",
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
                "with ÷d_k (μP); dashed before training, solid after, fitted exponents in the "
                "legend. ÷√d_k is flat before training but grows with d_k after it. ÷d_k "
                "shrinks with d_k before training and is flat after it. Right: the cosine "
                "between a query and its target key, near 0 before training and above 0.5 after "
                "it for both.",
            },
            "sqrt": {"ko": "÷√dₖ", "en": "÷√dₖ"},
            "mup": {"ko": "÷dₖ (μP)", "en": "÷dₖ (μP)"},
            "init": {"ko": "학습 전: {a}", "en": "before training: {a}"},
            "final": {"ko": "학습 후: {a}", "en": "after training: {a}"},
            "slope": {"ko": "지수 a (표준편차 ∝ dₖᵃ)", "en": "exponent a (std ∝ dₖᵃ)"},
            "cos_init": {"ko": "{s}, 학습 전", "en": "{s}, before"},
            "cos_final": {"ko": "{s}, 학습 후", "en": "{s}, after"},
            "panel_sqrt": {
                "ko": "÷√dₖ로 학습: 로짓 표준편차",
                "en": "trained with ÷√dₖ: logit std",
            },
            "panel_mup": {
                "ko": "÷dₖ(μP)로 학습: 로짓 표준편차",
                "en": "trained with ÷dₖ (μP): logit std",
            },
            "panel_cos": {"ko": "쿼리–정답 키 코사인", "en": "cosine of query and target key"},
            "ylabel": {"ko": "로짓 표준편차 (로그 축)", "en": "logit std (log scale)"},
            "dk": {"ko": "헤드 차원 dₖ", "en": "head dimension dₖ"},
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
