#!/usr/bin/env python3
"""Gather calibration samples (real public text) for kinds:
prose-{en,de,fr,es,ru,zh,ja,ko,ar,hi}, chat, emoji, markdown, latex.

Sources are downloaded beforehand into WORK (see fetch() below, or run with
--fetch).  Everything is deterministic given the same package versions
(random.Random seeded per kind).

Usage:
    python3 gather_a.py --fetch          # download + unpack sources into WORK
    python3 gather_a.py [kind ...]       # (re)build corpus/<kind>/ samples

Each sample is an excerpt cut at line boundaries from one real file (or the
plain-text rendering of one man page / HTML help page / the msgstr list of
one gettext catalog), 200..40000 characters, sizes roughly log-uniform.
"""
import glob
import gzip
import html.parser
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import unicodedata

WORK = "/work/scratch/corpus-a"
OUT = "/work/main/corpus"
X = WORK + "/x"        # unpacked Debian packages, one dir per .deb
NX = WORK + "/nx"      # unpacked npm tarballs
PIP = WORK + "/pip"    # unpacked Python sdists/wheels
CARGO_SRC = glob.glob(os.path.expanduser("~/.cargo/registry/src/*"))

# strings that must not appear in any sample (built from pieces so that this
# script itself does not contain them)
FORBIDDEN = ["crates" + ".io", "py" + "pi", "python" + "hosted", "npm" + "js",
             "debian" + ".org", "registry" + ".yarnpkg"]

MIN_CHARS, MAX_CHARS = 200, 40000

DEB_PKGS = """manpages-de manpages-fr manpages-es manpages-ru manpages-ja manpages-zh
debian-reference-en debian-reference-de debian-reference-fr debian-reference-es
debian-reference-ja debian-reference-zh-cn fortunes fortunes-min fortunes-de fortunes-zh
fortunes-ru fortunes-es fortunes-pl fortunes-it fortunes-br fortunes-mario fortunes-cs
fortunes-bg unicode-cldr-core unicode-data libreoffice-help-hi libreoffice-l10n-hi
libreoffice-l10n-ar libreoffice-help-ko libc-l10n gnome-control-center-data
gnome-shell-common nautilus-data libgtk-3-common libgweather-4-common
gnome-software-common evolution-common thunar-data xfce4-panel dolphin kate okular
gedit-common rhythmbox-data totem-common gnome-calculator gnome-terminal-data
evince-common file-roller gnome-maps baobab eog seahorse simple-scan gucharmap
brasero-common transmission-common vlc-l10n mousepad ristretto xfce4-settings
aptitude-common debconf-i18n tasksel-data gnupg-l10n konsole kcalc ark gwenview
systemsettings gnucash-common pidgin-data hexchat-common
texlive-latex-base texlive-latex-recommended texlive-science texlive-pictures
texlive-publishers texlive-bibtex-extra texlive-humanities texlive-latex-base-doc
texlive-latex-recommended-doc texlive-fonts-recommended texlive-lang-german
texlive-lang-french texlive-games texlive-music texlive-plain-generic""".split()
PY_SDIST = ["irclog2html", "chatterbot-corpus", "whatstk"]
PY_WHEEL = ["sphinx", "nbconvert", "emoji"]
NPM = """emojibase-data emojilib unicode-emoji-json gitmoji gitmojis emojis-list node-emoji
emoji.json cldr-annotations-modern @emoji-mart/data emoji-datasource gitmoji-changelog
gitmoji-cli chalk commander express lodash axios yargs debug minimist dayjs marked
markdown-it husky zod vite rollup esbuild nodemon socket.io uuid dotenv mocha chai ws
semver glob inquirer ora date-fns prettier eslint typescript webpack react-router
@babel/core fastify koa jsdom cheerio sharp got execa""".split()
CRATES = ["serde", "clap", "regex", "anyhow", "thiserror", "rayon", "itertools", "log",
          "once_cell", "bytes", "memchr", "indexmap", "smallvec"]


def fetch():
    """Download and unpack all sources (needs apt lists, pip, npm, cargo)."""
    os.makedirs(WORK + "/deb", exist_ok=True)
    subprocess.run(["apt-get", "download"] + DEB_PKGS, cwd=WORK + "/deb")
    for f in glob.glob(WORK + "/deb/*.deb"):
        d = X + "/" + os.path.basename(f)[:-4]
        if not os.path.isdir(d):
            subprocess.run(["dpkg", "-x", f, d])
    os.makedirs(PIP, exist_ok=True)
    subprocess.run(["pip", "download", "--no-deps", "--no-binary", ":all:"] + PY_SDIST, cwd=PIP)
    subprocess.run(["pip", "download", "--no-deps"] + PY_WHEEL, cwd=PIP)
    for f in glob.glob(PIP + "/*.tar.gz"):
        subprocess.run(["tar", "xzf", f], cwd=PIP)
    for f in glob.glob(PIP + "/*.whl"):
        subprocess.run(["unzip", "-q", "-o", f, "-d", f[:-4]])
    os.makedirs(WORK + "/npm", exist_ok=True)
    for p in NPM:
        subprocess.run(["npm", "pack", "-q", p], cwd=WORK + "/npm")
    for f in glob.glob(WORK + "/npm/*.tgz"):
        d = NX + "/" + os.path.basename(f)[:-4]
        os.makedirs(d, exist_ok=True)
        subprocess.run(["tar", "xzf", f, "-C", d])
    cr = WORK + "/cr"
    os.makedirs(cr + "/src", exist_ok=True)
    with open(cr + "/Cargo.toml", "w") as fh:
        fh.write('[package]\nname = "crfetch"\nversion = "0.0.0"\nedition = "2021"\n'
                 "[dependencies]\n" + "".join('%s = "*"\n' % c for c in CRATES))
    with open(cr + "/src/main.rs", "w") as fh:
        fh.write("fn main(){}\n")
    subprocess.run(["cargo", "fetch"], cwd=cr)


# ---------------------------------------------------------------- helpers

class Doc:
    """One source text. origin: package + path; how: extraction note."""

    def __init__(self, pkg, path, text, licence, how="", group=None):
        self.pkg = pkg            # e.g. "Debian package manpages-de 4.18.1-1"
        self.path = path          # path inside the package
        self.text = text.replace("\r\n", "\n")
        self.licence = licence
        self.how = how
        self.group = group or pkg  # diversity key
        self.used = 0
        self.weight = 1           # relative share of the sample rotation


def deb_dirs(name):
    """unpacked dirs of Debian package `name` -> (dir, version)"""
    res = []
    for d in sorted(glob.glob(X + "/" + name + "_*")):
        base = os.path.basename(d)
        if base.split("_")[0] != name:
            continue
        ver = base.split("_")[1].replace("%3a", ":")
        res.append((d, ver))
    return res


def deb_label(name, ver):
    return "Debian package %s %s" % (name, ver)


SPDX = {"GPL-2+": "GPL-2.0-or-later", "GPL-2": "GPL-2.0-only", "GPL-3+": "GPL-3.0-or-later",
        "GPL-3": "GPL-3.0-only", "LGPL-2+": "LGPL-2.0-or-later", "LGPL-2.1+": "LGPL-2.1-or-later",
        "LGPL-2.1": "LGPL-2.1-only", "LGPL-3+": "LGPL-3.0-or-later", "GPL-2.0+": "GPL-2.0-or-later",
        "GPL-3.0+": "GPL-3.0-or-later", "LGPL-2.0+": "LGPL-2.0-or-later",
        "GFDL-1.2+": "GFDL-1.2-or-later", "GFDL-1.3+": "GFDL-1.3-or-later", "MPL-2.0": "MPL-2.0"}


def copyright_licence(copyright_file, fallback="see package copyright file"):
    """Licence of the 'Files: *' stanza of a DEP-5 copyright file."""
    try:
        t = open(copyright_file, encoding="utf-8", errors="replace").read()
    except OSError:
        return fallback
    dep5 = t.lstrip().startswith("Format:")
    for stanza in (re.split(r"\n\s*\n", t) if dep5 else []):
        if re.search(r"^Files:\s*\*\s*$", stanza, re.M):
            m = re.search(r"^License:\s*(.+)$", stanza, re.M)
            if m:
                lic = m.group(1).strip()
                if len(lic.split()) <= 12:
                    return SPDX.get(lic, lic)
    m = re.search(r"^License:\s*(.+)$", t, re.M) if dep5 else None
    if m and len(m.group(1).split()) <= 6:
        lic = m.group(1).strip()
        return SPDX.get(lic, lic)
    m = re.search(r"GNU (Lesser |Library )?General Public License.{0,200}?version (\d(\.\d)?)", t, re.S)
    if m:
        base = ("LGPL-" if m.group(1) else "GPL-") + (m.group(2) if "." in m.group(2) else m.group(2) + ".0")
        later = "any later version" in t[m.start():m.start() + 600]
        return base + ("-or-later" if later else "-only")
    if re.search(r"/usr/share/common-licenses/(GPL|LGPL|BSD|Apache)", t):
        return "see package copyright file (" + re.search(r"/usr/share/common-licenses/([\w.-]+)", t).group(1) + ")"
    return fallback


def deb_licence(name, d=None):
    if d is None:
        dd = deb_dirs(name)
        d = dd[0][0] if dd else "/"
    return copyright_licence(d + "/usr/share/doc/%s/copyright" % name)


def read_text(path):
    with open(path, "rb") as fh:
        b = fh.read()
    if path.endswith(".gz"):
        b = gzip.decompress(b)
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def render_man(path):
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", MANWIDTH="80")
    try:
        p = subprocess.run("man -l %s 2>/dev/null | col -bx" % sh_quote(path), shell=True,
                           capture_output=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    try:
        return p.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def mo_msgstrs(path):
    """msgstr texts of a .mo catalog, in catalog order (plural forms each
    separately), header entry skipped."""
    with open(path, "rb") as fh:
        b = fh.read()
    magic = struct.unpack("<I", b[:4])[0]
    e = "<" if magic == 0x950412de else ">"
    _, n, oo, to = struct.unpack(e + "4I", b[4:20])
    out = []
    for i in range(n):
        olen, ooff = struct.unpack(e + "2I", b[oo + 8 * i: oo + 8 * i + 8])
        tlen, toff = struct.unpack(e + "2I", b[to + 8 * i: to + 8 * i + 8])
        if olen == 0:
            continue  # header
        try:
            s = b[toff:toff + tlen].decode("utf-8")
        except UnicodeDecodeError:
            return None
        for form in s.split("\0"):
            if form.strip():
                out.append(form)
    return "\n".join(out)


class HTMLText(html.parser.HTMLParser):
    BLOCK = {"p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "table",
             "ul", "ol", "pre", "title", "dt", "dd"}

    def __init__(self):
        super().__init__()
        self.parts = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_to_text(t):
    p = HTMLText()
    p.feed(t)
    s = "".join(p.parts)
    lines = [re.sub(r"[ \t]+", " ", l).strip() for l in s.split("\n")]
    out, blank = [], False
    for l in lines:
        if not l:
            if not blank and out:
                out.append("")
            blank = True
        else:
            out.append(l)
            blank = False
    return "\n".join(out).strip() + "\n"


# ------------------------------------------------------------ text checks

def script_ratio(t, lo, hi_):
    letters = [c for c in t if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if any(a <= ord(c) <= b for a, b in zip(lo, hi_))) / len(letters)


RANGES = {
    "ru": ([0x400], [0x4FF]),
    "zh": ([0x4E00, 0x3400], [0x9FFF, 0x4DBF]),
    "ja": ([0x3040, 0x4E00], [0x30FF, 0x9FFF]),
    "ko": ([0xAC00, 0x1100, 0x3130], [0xD7AF, 0x11FF, 0x318F]),
    "ar": ([0x600, 0x750, 0xFB50, 0xFE70], [0x6FF, 0x77F, 0xFDFF, 0xFEFF]),
    "hi": ([0x900], [0x97F]),
}
STOP = {
    "en": "the and of to is in that for with are this be not or by on as".split(),
    "de": "der die das und ist nicht mit den für von ein eine werden wird sie auf zu".split(),
    "fr": "le la les et des est une pour que dans du pas sur par sont avec".split(),
    "es": "el la los las y que es una para del por con no se en como".split(),
}


def lang_ok(kind, t):
    lang = kind.split("-", 1)[1]
    if lang in RANGES:
        lo, hi_ = RANGES[lang]
        need = 0.5 if lang in ("zh", "ja", "ko") else 0.6
        r = script_ratio(t, lo, hi_)
        if lang == "ja" and not re.search(r"[\u3040-\u30ff]", t):
            return False
        return r >= need
    words = re.findall(r"[^\W\d_]+", t.lower())
    if len(words) < 20:
        return False
    cnt = {k: sum(1 for w in words if w in set(v)) for k, v in STOP.items()}
    if lang == "en":
        return cnt["en"] >= 0.08 * len(words) and all(cnt["en"] > 3 * cnt[k] for k in cnt if k != "en")
    return cnt[lang] >= 0.06 * len(words) and cnt[lang] > 2 * cnt["en"]


def is_emoji_char(c):
    o = ord(c)
    return (0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x27BF or 0x2300 <= o <= 0x23FF
            or 0x2B00 <= o <= 0x2BFF or o in (0x200D, 0xFE0F, 0x20E3, 0x3030, 0x303D, 0x3297, 0x3299)
            or 0xE0020 <= o <= 0xE007F or 0x2190 <= o <= 0x21FF and o in (0x2194, 0x2195, 0x2196, 0x2197, 0x2198, 0x2199, 0x21A9, 0x21AA)
            or o in (0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x2139, 0x24C2, 0x25AA, 0x25AB, 0x25B6, 0x25C0, 0x25FB, 0x25FC, 0x25FD, 0x25FE))


def emoji_ratio(t):
    return sum(1 for c in t if is_emoji_char(c)) / max(1, len(t))


def clean_ok(t):
    low = t.lower()
    if any(f in low for f in FORBIDDEN):
        return False
    if "PRIVATE KEY" in t:
        return False
    if len(re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", t)) > 5:
        return False
    return True


# ------------------------------------------------------------ sampling

def targets(rng, n, lo=MIN_CHARS, hi=MAX_CHARS):
    return sorted(int(math.exp(rng.uniform(math.log(lo * 1.05), math.log(hi * 0.95)))) for _ in range(n))


def excerpt(rng, doc, target, check, tries=12):
    """Cut a line-bounded excerpt of about `target` chars from doc; return text or None."""
    lines = doc.text.split("\n")
    n = len(lines)
    total = len(doc.text)
    for attempt in range(tries):
        if total <= target:
            start = 0
        else:
            # pick a start so that there is roughly enough text after it
            cum, pos = 0, []
            for l in lines:
                pos.append(cum)
                cum += len(l) + 1
            cands = [i for i in range(n) if pos[i] <= total - target] or [0]
            start = 0 if attempt == 0 and rng.random() < 0.3 else rng.choice(cands)
        # skip leading blank lines
        while start < n and not lines[start].strip():
            start += 1
        out, size = [], 0
        i = start
        while i < n and size < target:
            if size + len(lines[i]) + 1 > MAX_CHARS:
                break
            out.append(lines[i])
            size += len(lines[i]) + 1
            i += 1
        t = "\n".join(out).strip("\n").rstrip()
        if len(t) < MIN_CHARS or len(t) > MAX_CHARS:
            if total <= target:
                return None
            continue
        if clean_ok(t) and check(t):
            return t, start + 1, start + len(out)
    return None


def doc_text_stripped(d):
    return d.text.strip()


def build(kind, docs, check, n=42, seed=1, max_bytes=590_000, bpc=1.05):
    """Pick n samples from docs (round-robin over groups) and write them."""
    rng = random.Random(seed)
    outdir = os.path.join(OUT, kind)
    if os.path.isdir(outdir):
        for f in glob.glob(outdir + "/*"):
            os.remove(f)
    os.makedirs(outdir, exist_ok=True)
    docs = [d for d in docs if d.text and len(d.text.strip()) >= MIN_CHARS]
    tg = targets(rng, n)
    # compress sizes if the expected byte size exceeds budget
    alpha = 1.0
    while sum(tg) * bpc > max_bytes * 0.9 and alpha > 0.3:
        alpha -= 0.05
        tg = [int(math.exp(math.log(MIN_CHARS * 1.05) + (math.log(t) - math.log(MIN_CHARS * 1.05)) * alpha))
              for t in targets(random.Random(seed), n)]
    rng.shuffle(tg)
    groups = {}
    for d in docs:
        groups.setdefault(d.group, []).append(d)
    gkeys = []
    for g in sorted(groups):
        gkeys += [g] * max(d.weight for d in groups[g])
    rng.shuffle(gkeys)
    for g in gkeys:
        rng.shuffle(groups[g])
    rows, total_bytes, gi = [], 0, 0
    seen = set()
    fails = 0
    while len(rows) < n and fails < 400:
        target = tg[len(rows) % len(tg)]
        g = gkeys[gi % len(gkeys)]
        gi += 1
        cands = [d for d in groups[g] if d.used < 3]
        if not cands:
            fails += 1
            continue
        big = [d for d in cands if len(d.text) >= target * 0.9]
        d = rng.choice(big) if big else max(cands, key=lambda d: len(d.text))
        r = excerpt(rng, d, target, check)
        if r is None:
            d.used += 1  # do not insist on a doc that does not give good excerpts
            fails += 1
            continue
        t, a, b = r
        if t in seen:
            d.used += 1
            fails += 1
            continue
        seen.add(t)
        if len(t) >= len(doc_text_stripped(d)):
            d.used = 3  # whole file taken: never again
        nb = len(t.encode("utf-8"))
        if total_bytes + nb > max_bytes:
            fails += 1
            continue
        d.used += 1
        total_bytes += nb
        sid = "%s-%03d" % (kind, len(rows) + 1)
        with open(os.path.join(outdir, sid + ".txt"), "w", encoding="utf-8") as fh:
            fh.write(t + "\n")
        nl = d.text.count("\n") + 1
        where = "lines %d-%d" % (a, b) if not (a == 1 and b >= nl - 1) else "whole file"
        origin = "%s: %s%s, %s" % (d.pkg, d.path, (", " + d.how) if d.how else "", where)
        rows.append((sid, origin, d.licence))
    with open(os.path.join(outdir, "SOURCES.tsv"), "w", encoding="utf-8") as fh:
        fh.write("id\torigin\tlicence\n")
        for r in rows:
            fh.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    print("%s: %d samples, %d bytes, %d groups" % (kind, len(rows), total_bytes,
                                                  len({r[1].split(':')[0] for r in rows})))


# ------------------------------------------------------------ sources

def man_docs(pkgname, langdir, k, rng, licence=None, sec=("1", "5", "7", "8")):
    docs = []
    for d, ver in deb_dirs(pkgname):
        files = sorted(f for f in glob.glob(d + "/usr/share/man/%s/man*/*" % langdir)
                       if not os.path.islink(f) and re.search(r"/man(%s)/" % "|".join(sec), f))
        rng.shuffle(files)
        lic = licence or deb_licence(pkgname, d)
        for f in files[:k]:
            t = render_man(f)
            if t:
                docs.append(Doc(deb_label(pkgname, ver), f[len(d) + 1:], t, lic,
                                "rendered with man -l | col -bx (MANWIDTH=80)",
                                group=pkgname))
    return docs


def debref_docs(lang):
    docs = []
    for d, ver in deb_dirs("debian-reference-" + lang):
        for f in glob.glob(d + "/usr/share/debian-reference/*.txt*"):
            t = read_text(f)
            if t:
                # split per chapter into separate docs by blank-line runs is not
                # needed; excerpts are random windows of the whole text file
                docs.append(Doc(deb_label("debian-reference-" + lang, ver), f[len(d) + 1:], t,
                                "GPL-2.0-or-later", "gunzipped plain-text edition"))
    return docs


def installed_pkg_of(path):
    p = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    name = p.stdout.split(":")[0].strip()
    v = subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True).stdout
    return name, v


def mo_docs(locales, extra_installed=True, min_chars=400):
    """gettext catalogs of the given locale dirs, from unpacked Debian packages
    and from packages installed on this machine."""
    docs = []
    for d in sorted(glob.glob(X + "/*")):
        base = os.path.basename(d)
        name, ver = base.split("_")[0], base.split("_")[1].replace("%3a", ":")
        for loc in locales:
            pats = [d + "/usr/share/locale/%s/LC_MESSAGES/*.mo" % loc,
                    d + "/usr/share/locale-langpack/%s/LC_MESSAGES/*.mo" % loc,
                    d + "/usr/lib/libreoffice/program/resource/%s/LC_MESSAGES/*.mo" % loc]
            for pat in pats:
                for f in sorted(glob.glob(pat)):
                    t = mo_msgstrs(f)
                    if t and len(t) >= min_chars:
                        docs.append(Doc(deb_label(name, ver), f[len(d) + 1:], t, deb_licence(name, d),
                                        "msgstr texts decoded from the .mo catalog, one per line",
                                        group=name))
    if extra_installed:
        for loc in locales:
            for f in sorted(glob.glob("/usr/share/locale/%s/LC_MESSAGES/*.mo" % loc)):
                pv = installed_pkg_of(f)
                if not pv:
                    continue
                t = mo_msgstrs(f)
                if t and len(t) >= min_chars:
                    docs.append(Doc(deb_label(*pv), f[1:], t, deb_licence(pv[0], "/"),
                                    "msgstr texts decoded from the .mo catalog, one per line",
                                    group=pv[0]))
    return docs


def lo_help_docs(lang, k, rng):
    docs = []
    for d, ver in deb_dirs("libreoffice-help-" + lang):
        files = sorted(glob.glob(d + "/usr/share/libreoffice/help/%s/text/**/*.html" % lang, recursive=True))
        rng.shuffle(files)
        for f in files[:k]:
            t = read_text(f)
            if t:
                docs.append(Doc(deb_label("libreoffice-help-" + lang, ver), f[len(d) + 1:], html_to_text(t),
                                "MPL-2.0", "text extracted from the HTML (tags stripped)",
                                group="libreoffice-help-" + lang))
    return docs


def prose(lang):
    rng = random.Random("prose-" + lang)
    docs = []
    man_langdir = {"de": "de", "fr": "fr", "es": "es", "ru": "ru", "ja": "ja", "zh": "zh_CN"}
    man_lic = {"de": "GPL-3.0-or-later", "fr": "GPL-3.0-or-later", "es": "GPL-3.0-or-later",
               "ru": "GPL-3.0-or-later",
               "ja": "same licences as the original man pages (JM Project; see package copyright)",
               "zh": "GFDL-1.2-or-later / GPL-2.0-or-later (see package copyright)"}
    if lang in man_langdir:
        docs += man_docs("manpages-" + lang, man_langdir[lang], 70, rng, man_lic[lang])
    if lang in ("en", "de", "fr", "es", "ja"):
        docs += debref_docs(lang)
    if lang == "zh":
        docs += debref_docs("zh-cn")
    for d in docs:
        d.weight = 14 if d.group.startswith("manpages-") else 4
    if lang == "en":
        # English man pages of packages installed on this machine
        files = sorted(f for f in glob.glob("/usr/share/man/man[1578]/*.gz") if not os.path.islink(f))
        rng.shuffle(files)
        seen = {}
        for f in files:
            if len(docs) > 120:
                break
            pv = installed_pkg_of(f)
            if not pv or seen.get(pv[0], 0) >= 4:
                continue
            seen[pv[0]] = seen.get(pv[0], 0) + 1
            t = render_man(f)
            if t:
                docs.append(Doc(deb_label(*pv), f[1:], t, deb_licence(pv[0], "/"),
                                "rendered with man -l | col -bx (MANWIDTH=80)", group=pv[0]))
    if lang in ("hi", "ko"):
        docs += lo_help_docs(lang, 200, rng)
        for d in docs:
            d.weight = 12
    locs = {"en": [], "de": ["de"], "fr": ["fr"], "es": ["es"], "ru": ["ru"],
            "zh": ["zh_CN", "zh-CN"], "ja": ["ja"], "ko": ["ko"], "ar": ["ar"], "hi": ["hi"]}[lang]
    if locs:
        docs += mo_docs(locs)
    bpc = {"en": 1.0, "de": 1.02, "fr": 1.03, "es": 1.02, "ru": 1.8, "zh": 2.8, "ja": 2.8,
           "ko": 2.5, "ar": 1.8, "hi": 2.6}[lang]
    kind = "prose-" + lang
    build(kind, docs, lambda t: lang_ok(kind, t), n=42, seed="prose-" + lang, bpc=bpc)


def chat():
    docs = []
    # chatterbot-corpus: YAML dialogue lists, many languages
    for d in glob.glob(PIP + "/chatterbot_corpus-*"):
        ver = d.rsplit("-", 1)[1]
        for f in sorted(glob.glob(d + "/chatterbot_corpus/data/*/*.yml")):
            t = read_text(f)
            if t:
                docs.append(Doc("Python package chatterbot-corpus %s" % ver, f[len(d) + 1:], t, "BSD-3-Clause",
                                group="chatterbot:" + f.split("/")[-2]))
    for d in glob.glob(PIP + "/irclog2html-*"):
        ver = d.rsplit("-", 1)[1]
        for f in sorted(glob.glob(d + "/testcases/*.log") + glob.glob(d + "/src/irclog2html/tests/*.log")):
            t = read_text(f)
            if t:
                docs.append(Doc("Python package irclog2html %s (sdist)" % ver, f[len(d) + 1:], t,
                                "GPL-3.0-or-later", group="irclog2html"))
    for d in glob.glob(PIP + "/whatstk-*"):
        ver = d.rsplit("-", 1)[1]
        f = d + "/chats/whatsapp/pokemon.txt"
        if os.path.exists(f):
            docs.append(Doc("Python package whatstk %s (sdist)" % ver, f[len(d) + 1:], read_text(f),
                            "GPL-3.0-only", group="whatstk"))
    # dialogue-heavy fortune files (IRC quotes, Q/A jokes, dialogues)
    fortune_files = {
        "fortunes": ["knghtbrd"], "fortunes-min": ["riddles"],
        "fortunes-de": ["de/channel-debian.fortunes", "de/elefanten", "de/doppelsinnig"],
        "fortunes-pl": ["pl/irc", "pl/plug", "pl/linuxpl", "pl/linuxfr", "pl/teleturnieje", "pl/dwimc",
                        "pl/pLug-slc2001", "pl/bok"],
        "fortunes-ru": ["ru/armenian"],
    }
    for pkg, names in fortune_files.items():
        for d, ver in deb_dirs(pkg):
            lic = {"fortunes": "BSD-4-Clause-UC (fortune-mod; see package copyright)",
                   "fortunes-min": "BSD-4-Clause-UC (fortune-mod; see package copyright)",
                   "fortunes-pl": deb_licence(pkg, d)}.get(pkg) or deb_licence(pkg, d)
            for nme in names:
                f = d + "/usr/share/games/fortunes/" + nme
                if not os.path.exists(f):
                    continue
                t = read_text(f)
                if t is None:
                    t = open(f, "rb").read().decode("koi8-r" if pkg == "fortunes-ru" else "latin-1")
                    how = "decoded from legacy 8-bit encoding"
                else:
                    how = ""
                docs.append(Doc(deb_label(pkg, ver), f[len(d) + 1:], t, lic, how, group=pkg))

    def ok(t):
        return len(t.split("\n")) >= 4
    build("chat", docs, ok, n=42, seed="chat", bpc=1.4)


EMOJI_NPM_FILES = [
    ("emojis-list", "package/index.js"),
    ("emojilib", "package/dist/emoji-en-US.json"),
    ("unicode-emoji-json", "package/data-ordered-emoji.json"),
    ("unicode-emoji-json", "package/data-by-group.json"),
    ("unicode-emoji-json", "package/data-emoji-components.json"),
    ("node-emoji", "package/lib/index.cjs"),
    ("emoji.json", "package/emoji.json"),
    ("emoji.json", "package/emoji-compact.json"),
    ("gitmojis", "package/src/gitmojis.json"),
    ("gitmoji-changelog", "package/README.md"),
    ("gitmoji-cli", "package/README.md"),
]


def npm_pkgdirs(name):
    flat = name.replace("@", "").replace("/", "-")
    res = []
    for d in sorted(glob.glob(NX + "/" + flat + "-*")):
        rest = os.path.basename(d)[len(flat) + 1:]
        if re.match(r"^\d+\.\d+", rest):
            res.append((d, rest))
    return res


def npm_licence(d):
    try:
        j = json.load(open(d + "/package/package.json"))
        lic = j.get("license") or j.get("licenses")
        if isinstance(lic, dict):
            lic = lic.get("type")
        if isinstance(lic, list):
            lic = " OR ".join(x.get("type", "") if isinstance(x, dict) else str(x) for x in lic)
        return lic or "see package"
    except Exception:
        return "see package"


def emoji():
    docs = []
    for d in glob.glob(NX + "/*"):
        base = os.path.basename(d)
        m = re.match(r"^(.*)-(\d+\.\d+\.\d+.*)$", base)
        if not m:
            continue
        name, ver = m.groups()
        if name == "emoji-mart-data":
            name = "@emoji-mart/data"
        lic = npm_licence(d)
        files = []
        for f in glob.glob(d + "/package/**/*", recursive=True):
            if os.path.isdir(f) or f.endswith((".png", ".map", ".d.ts")):
                continue
            if os.path.getsize(f) > 3_000_000:
                continue
            files.append(f)
        for f in sorted(files):
            try:
                t = open(f, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            if len(t) < 400 or emoji_ratio(t) < 0.02:
                continue
            docs.append(Doc("npm package %s %s" % (name, ver), f[len(d) + 1:], t, lic, group=name))
    for d, ver in deb_dirs("unicode-data"):
        for f in glob.glob(d + "/usr/share/unicode/emoji/*.txt"):
            t = read_text(f)
            if t and emoji_ratio(t) >= 0.02:
                docs.append(Doc(deb_label("unicode-data", ver), f[len(d) + 1:], t, "Unicode-DFS-2016",
                                group="unicode-data:" + os.path.basename(f)))
    for d, ver in deb_dirs("unicode-cldr-core"):
        for f in sorted(glob.glob(d + "/usr/share/unicode/cldr/common/annotations*/*.xml")):
            t = read_text(f)
            if t and emoji_ratio(t) >= 0.03:
                docs.append(Doc(deb_label("unicode-cldr-core", ver), f[len(d) + 1:], t, "Unicode-DFS-2016",
                                group="cldr-core:" + f.split("/")[-2]))
    for d in glob.glob(PIP + "/emoji-*-py3-none-any"):
        ver = os.path.basename(d).split("-")[1]
        for f in glob.glob(d + "/emoji/**/*.py", recursive=True):
            t = read_text(f)
            if t and emoji_ratio(t) >= 0.03:
                docs.append(Doc("Python package emoji %s (wheel)" % ver, f[len(d) + 1:], t, "BSD-3-Clause",
                                group="py-emoji"))
    build("emoji", docs, lambda t: emoji_ratio(t) >= 0.05, n=42, seed="emoji", bpc=2.5)


def markdown():
    docs = []
    for d in sorted(glob.glob(NX + "/*")):
        base = os.path.basename(d)
        m = re.match(r"^(.*)-(\d+\.\d+\.\d+.*)$", base)
        if not m:
            continue
        name, ver = m.groups()
        if "emoji" in name:
            continue
        lic = npm_licence(d)
        for f in sorted(glob.glob(d + "/package/**/*.md", recursive=True)):
            if "/node_modules/" in f:
                continue
            t = read_text(f)
            if t:
                docs.append(Doc("npm package %s %s" % (name.replace("babel-core", "@babel/core"), ver),
                                f[len(d) + 1:], t, lic, group="npm:" + name))
    for src in CARGO_SRC:
        for d in sorted(glob.glob(src + "/*")):
            base = os.path.basename(d)
            m = re.match(r"^(.*)-(\d+\.\d+\.\d+.*)$", base)
            if not m:
                continue
            name, ver = m.groups()
            lic = "see Cargo.toml"
            try:
                mm = re.search(r'^license\s*=\s*"([^"]+)"', open(d + "/Cargo.toml").read(), re.M)
                if mm:
                    lic = mm.group(1)
            except OSError:
                pass
            for f in sorted(glob.glob(d + "/**/*.md", recursive=True)):
                t = read_text(f)
                if t:
                    docs.append(Doc("Rust crate %s %s" % (name, ver), f[len(d) + 1:], t, lic,
                                    group="crate:" + re.sub(r"[-_](impl|derive|core|macros|shared|sys)$", "", name)))

    def ok(t):
        return bool(re.search(r"^(#{1,6} |[-*] |\d+\. |```|> )", t, re.M)) and lang_ok("prose-en", t) or \
            bool(re.search(r"^#{1,6} ", t, re.M))
    build("markdown", docs, ok, n=42, seed="markdown", bpc=1.0)


def tex_licence(t, default):
    h = t[:6000]
    if re.search(r"LaTeX Project Public License|LPPL", h, re.I):
        m = re.search(r"version\s+(1\.3[a-c]?)", h)
        return "LPPL-%s" % (m.group(1) if m else "1.3c") + ("-or-later" if "or later" in h else "")
    if re.search(r"GNU General Public License", h):
        return "GPL (as stated in file header)"
    if re.search(r"public domain", h, re.I):
        return "public-domain (as stated in file header)"
    return default


def latex():
    docs = []
    for d in sorted(glob.glob(X + "/texlive-*")):
        base = os.path.basename(d)
        name, ver = base.split("_")[0], base.split("_")[1].replace("%3a", ":")
        files = []
        for ext in ("sty", "cls", "tex", "dtx", "ltx", "def", "clo"):
            files += glob.glob(d + "/usr/share/**/*." + ext, recursive=True)
            files += glob.glob(d + "/usr/share/**/*." + ext + ".gz", recursive=True)
        for f in sorted(files):
            if os.path.islink(f) or os.path.getsize(f) < 300:
                continue
            t = read_text(f)
            if not t or t.count("\\") < 10:
                continue
            ctan = f.split("/")[-2]
            docs.append(Doc(deb_label(name, ver), f[len(d) + 1:], t,
                            tex_licence(t, "LPPL-1.3c (texlive; see package copyright)"),
                            "gunzipped" if f.endswith(".gz") else "", group=name + ":" + ctan))
    for d in glob.glob(PIP + "/sphinx-*-py3-none-any"):
        ver = os.path.basename(d).split("-")[1]
        for f in sorted(glob.glob(d + "/sphinx/texinputs/*") + glob.glob(d + "/sphinx/templates/latex/*.tex*")):
            t = read_text(f)
            if t:
                docs.append(Doc("Python package sphinx %s (wheel)" % ver, f[len(d) + 1:], t,
                                tex_licence(t, "BSD-2-Clause"), group="sphinx"))
    for d in glob.glob(PIP + "/nbconvert-*-py3-none-any"):
        ver = os.path.basename(d).split("-")[1]
        for f in sorted(glob.glob(d + "/**/templates/latex/*.tex.j2", recursive=True)):
            t = read_text(f)
            if t:
                docs.append(Doc("Python package nbconvert %s (wheel)" % ver, f[len(d) + 1:], t, "BSD-3-Clause",
                                group="nbconvert"))

    def ok(t):
        return t.count("\\") >= 5
    build("latex", docs, ok, n=42, seed="latex", bpc=1.0)


KINDS = {"chat": chat, "emoji": emoji, "markdown": markdown, "latex": latex}
for _l in ("en", "de", "fr", "es", "ru", "zh", "ja", "ko", "ar", "hi"):
    KINDS["prose-" + _l] = (lambda l: (lambda: prose(l)))(_l)

if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--fetch":
        fetch()
        sys.exit(0)
    for k in args or list(KINDS):
        KINDS[k]()
