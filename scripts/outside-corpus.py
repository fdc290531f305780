#!/usr/bin/env python3
"""The estimate on languages outside the corpus: the UI strings of 19 languages' gettext catalogues on this Debian
machine, against every profile's real count.

For each language, the largest `.mo` file under /usr/share/locale/<lang>/LC_MESSAGES is decoded with `msgunfmt`
(Debian's gettext package), its `msgstr` lines are kept (quotes stripped, escapes as written) and the first 6,000
bytes, cut at a character boundary, are one text. The packages those catalogues come from (iso-codes, GTK 2 and 3,
PostgreSQL, coreutils, tar, git, binutils) are never gathered into the corpus (corpus/tools/gather_l.py).

True counts: `llm-preflight count` (o200k, cl100k) and calibration/vendors/count.mjs (the others, as calibration
counts them). Estimates: `llm-preflight estimate --profile P`.

Usage: python3 scripts/outside-corpus.py [PATH_TO_llm-preflight]   (default target/debug/llm-preflight)
Prints, per profile, the median |error|, how many texts the band holds, and each language's signed error (`!` when
the band misses it).
"""
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

LANGS = "am hy ka km lo kk mn ky tg my be bg mk sr hu ro fi sw et".split()
PROFILES = ["o200k", "cl100k", "llama3", "qwen3", "deepseek-v3", "gemini", "gemma3", "mistral-v1", "claude-legacy"]
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def text_of(lang):
    mos = glob.glob("/usr/share/locale/%s/LC_MESSAGES/*.mo" % lang)
    if not mos:
        return None
    mo = max(mos, key=lambda f: (os.path.getsize(f), f))
    out = subprocess.run(["msgunfmt", mo], capture_output=True, check=True).stdout.decode("utf-8", "replace")
    lines = []
    for line in out.splitlines():
        if line.startswith("msgstr"):
            s = line.split('"', 1)[1] if '"' in line else ""
            lines.append(s[:-1] if s.endswith('"') else s)
    return "\n".join(lines).encode("utf-8")[:6000].decode("utf-8", "ignore")


def main():
    cli = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/debug/llm-preflight"))
    tmp = tempfile.mkdtemp()
    langs, files = [], []
    for lang in LANGS:
        t = text_of(lang)
        if not t:
            print("no catalogue for", lang, file=sys.stderr)
            continue
        os.makedirs(os.path.join(tmp, lang))
        f = os.path.join(tmp, lang, "outside-%s.txt" % lang)
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(t)
        langs.append(lang)
        files.append(f)
    truth = {}
    for p in ("o200k", "cl100k"):
        out = subprocess.run([cli, "count", "--profile", p] + files, capture_output=True, text=True, check=True)
        truth[p] = [json.loads(line)["tokens"] for line in out.stdout.splitlines()]
    vendors = os.path.join(ROOT, "calibration/vendors")
    out = subprocess.run(["node", "count.mjs", tmp], capture_output=True, text=True, cwd=vendors, check=True)
    rows = [r.split("\t") for r in out.stdout.splitlines()]
    by_id = {r[0]: r for r in rows[1:]}
    for j, p in enumerate(rows[0][1:], 1):
        truth[p] = [int(by_id["outside-" + lang][j]) for lang in langs]
    for p in PROFILES:
        out = subprocess.run([cli, "estimate", "--profile", p] + files, capture_output=True, text=True, check=True)
        errors, held, parts = [], 0, []
        for lang, line, true in zip(langs, out.stdout.splitlines(), truth[p]):
            e = json.loads(line)
            err = (e["tokens"] - true) / true
            inside = e["low"] <= true <= e["high"]
            errors.append(abs(err))
            held += inside
            parts.append("%s%+.0f%s" % (lang, 100 * err, "" if inside else "!"))
        print("%-13s median %4.1f%%  band %2d/%d  %s" % (
            p, 100 * statistics.median(errors), held, len(langs), " ".join(parts)))


if __name__ == "__main__":
    main()
