#!/usr/bin/env python3
"""Gather the `prose-indic` calibration kind: real public prose in Indic scripts
other than Devanagari (Bengali, Assamese, Tamil, Telugu, Kannada, Malayalam,
Gujarati, Gurmukhi/Punjabi, Odia, Sinhala).

Same approach as gather_a.py's prose-hi (whose helpers this script imports):
the translated messages of gettext catalogs in Debian packages, taken as the
msgstr texts of the .mo catalog one per line (header entry skipped), cut into
line-bounded excerpts of 200..40000 characters, sizes roughly log-uniform.
Texts are never edited (CRLF -> LF only).  Marathi and Nepali are left out:
they are written in Devanagari, which prose-hi already covers.

Each language gets 4 samples (Telugu and Odia 5), with sizes spread over the
whole range, from distinct packages where it can.  An excerpt is kept only if
its own script makes up >= 60% of its letters, and only if it names no
package registry host.  Only the packages fetched below are used (not what
happens to be installed on this machine), so the result depends only on the
package versions; randomness is seeded.

Usage:
    python3 gather_c.py --fetch    # apt-get download + dpkg -x into WORK
    python3 gather_c.py            # (re)build corpus/prose-indic/
"""
import glob
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gather_a as ga  # noqa: E402

WORK = "/work/scratch/corpus-indic"
X = WORK + "/x"
OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
KIND = "prose-indic"
N = 42

LO_LANGS = ["bn", "ta", "te", "kn", "ml", "gu", "pa-in", "or", "si", "as"]
DEB_PKGS = ["libreoffice-l10n-" + l for l in LO_LANGS] + """gnome-control-center-data
gnome-shell-common nautilus-data libgtk-3-common evolution-common gedit-common
rhythmbox-data totem-common evince-common file-roller gnome-software-common eog
seahorse baobab simple-scan gucharmap brasero-common gnome-terminal-data
gnucash-common xfce4-settings thunar-data xfce4-panel mousepad libc-l10n
debconf-i18n tasksel-data aptitude-common gnupg-l10n pidgin-data hexchat-common
gnome-maps libgweather-4-common transmission-common vlc-l10n""".split()

# language -> (gettext locale dirs, Unicode block of its script)
LANGS = {
    "bn": (["bn", "bn_IN"], (0x0980, 0x09FF)),   # Bengali script
    "as": (["as"], (0x0980, 0x09FF)),            # Assamese, Bengali script
    "pa": (["pa", "pa_IN"], (0x0A00, 0x0A7F)),   # Gurmukhi
    "gu": (["gu"], (0x0A80, 0x0AFF)),            # Gujarati
    "or": (["or"], (0x0B00, 0x0B7F)),            # Odia
    "ta": (["ta"], (0x0B80, 0x0BFF)),            # Tamil
    "te": (["te"], (0x0C00, 0x0C7F)),            # Telugu
    "kn": (["kn"], (0x0C80, 0x0CFF)),            # Kannada
    "ml": (["ml"], (0x0D00, 0x0D7F)),            # Malayalam
    "si": (["si"], (0x0D80, 0x0DFF)),            # Sinhala
}
EXTRA = ["te", "or"]   # the two languages that get a fifth sample


def fetch():
    os.makedirs(WORK + "/deb", exist_ok=True)
    subprocess.run(["apt-get", "download"] + DEB_PKGS, cwd=WORK + "/deb", check=True)
    for f in sorted(glob.glob(WORK + "/deb/*.deb")):
        d = X + "/" + os.path.basename(f)[:-4]
        if not os.path.isdir(d):
            subprocess.run(["dpkg-deb", "-x", f, d], check=True)


def check_for(block):
    lo, hi = block
    return lambda t: ga.script_ratio(t, [lo], [hi]) >= 0.6


def slots(rng):
    """(language, target size) for every sample: log-uniform targets, sorted and
    dealt out in rounds so that every language gets small and large ones."""
    langs = sorted(LANGS)
    bpc = 2.7  # UTF-8 bytes per character of these scripts' prose, roughly
    tg = ga.targets(random.Random(KIND), N)
    alpha = 1.0
    while sum(tg) * bpc > 590_000 * 0.9 and alpha > 0.3:
        alpha -= 0.05
        base = math.log(ga.MIN_CHARS * 1.05)
        tg = sorted(int(math.exp(base + (math.log(t) - base) * alpha))
                    for t in ga.targets(random.Random(KIND), N))
    rounds = []
    for r in range(4):
        rr = langs[:]
        rng.shuffle(rr)
        rounds.append(rr)
        if r == 1:
            ex = EXTRA[:]
            rng.shuffle(ex)
            rounds.append(ex)
    order = [l for rr in rounds for l in rr]
    assert len(order) == N
    return list(zip(order, tg))


def build():
    ga.X = X  # mo_docs() reads the unpacked packages from here
    rng = random.Random(KIND)
    outdir = os.path.join(OUT, KIND)
    os.makedirs(outdir, exist_ok=True)
    for f in glob.glob(outdir + "/*"):
        os.remove(f)
    picked = {l: [] for l in LANGS}   # lang -> [(target, text, doc, a, b)]
    seen = set()
    for lang in sorted(LANGS):
        locs, block = LANGS[lang]
        docs = [d for d in ga.mo_docs(locs, extra_installed=False) if len(d.text.strip()) >= ga.MIN_CHARS]
        check = check_for(block)
        # keep only catalogs with enough of the script overall
        docs = [d for d in docs if ga.script_ratio(d.text, [block[0]], [block[1]]) >= 0.5]
        picked[lang] = (docs, check)
    out = {l: [] for l in LANGS}
    for lang, target in slots(rng):
        docs, check = picked[lang]
        used_groups = {d.group for (_, _, d, _, _) in out[lang]}
        cands = [d for d in docs if d.group not in used_groups and d.used < 1] or \
                [d for d in docs if d.used < 3]
        rng.shuffle(cands)
        big = [d for d in cands if len(d.text) >= target * 0.9]
        got = None
        for d in (big or sorted(cands, key=lambda d: -len(d.text))):
            r = ga.excerpt(rng, d, target, check)
            if r is None or r[0] in seen:
                d.used += 1
                continue
            got = (target, r[0], d, r[1], r[2])
            break
        if got is None:
            print("no sample for %s at %d chars" % (lang, target), file=sys.stderr)
            continue
        seen.add(got[1])
        d = got[2]
        d.used = 3 if len(got[1]) >= len(d.text.strip()) else d.used + 1
        out[lang].append(got)
    rows, total, k = [], 0, 0
    for lang in ["bn", "as", "pa", "gu", "or", "ta", "te", "kn", "ml", "si"]:
        for target, t, d, a, b in sorted(out[lang], key=lambda x: len(x[1])):
            k += 1
            sid = "%s-%03d" % (KIND, k)
            with open(os.path.join(outdir, sid + ".txt"), "w", encoding="utf-8") as fh:
                fh.write(t + "\n")
            total += len((t + "\n").encode("utf-8"))
            nl = d.text.count("\n") + 1
            where = "lines %d-%d" % (a, b) if not (a == 1 and b >= nl - 1) else "whole file"
            origin = "%s: %s, %s, %s" % (d.pkg, d.path, d.how, where)
            rows.append((sid, origin, d.licence, lang, len(t) + 1))
    with open(os.path.join(outdir, "SOURCES.tsv"), "w", encoding="utf-8") as fh:
        fh.write("id\torigin\tlicence\n")
        for r in rows:
            fh.write("\t".join(x.replace("\t", " ") for x in r[:3]) + "\n")
    for r in rows:
        print("%s\t%s\t%6d\t%s" % (r[0], r[3], r[4], r[1].split(":")[0]))
    print("%s: %d samples, %d bytes" % (KIND, len(rows), total))


if __name__ == "__main__":
    if sys.argv[1:] == ["--fetch"]:
        fetch()
    else:
        build()
