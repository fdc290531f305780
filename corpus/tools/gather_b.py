#!/usr/bin/env python3
"""Gather calibration samples for the kinds handled by helper "b".

Kinds: code-python code-rust code-js code-c js-min json-pretty json-min
       yaml toml html csv log base64 hex repeats

All text comes from real public packages, fetched beforehand into
/work/scratch/corpus-b with the ordinary clients:

  deb/    apt-get download <pkg> ...        (Debian binary packages)
  npm/    npm pack <name>[@ver] ...         (npm tarballs)
  pyidx/  pip download --no-deps <name>     (Python wheels and sdists)
  crate/proj  a throwaway Cargo project with many dependencies:
          cargo fetch            -> sources in ~/.cargo/registry/src/*/
          cargo vendor ../vendor -> crate/vendor/*/.cargo-checksum.json

Usage:  python3 gather_b.py [kind ...]     (default: all kinds)

The script unpacks the archives under /work/scratch/corpus-b/x, indexes
their files together with package name, version and stated licence,
and cuts excerpts (at line boundaries, or at any character for the
one-line kinds js-min / json-min / base64) with sizes spread roughly
log-uniformly over 200..40000 characters.  Text inside a sample is never
edited, except that CRLF is normalised to LF.  json-min falls back to
re-serialising real pretty JSON (json.dumps with compact separators) only
if too few natively minified files exist; such rows say so in SOURCES.
"""
import collections
import glob
import gzip
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tarfile
import zipfile

try:
    import tomllib
except ImportError:  # pragma: no cover
    tomllib = None

BASE = "/work/scratch/corpus-b"
X = os.path.join(BASE, "x")
OUT = "/work/main/corpus"
CARGO_SRC = os.path.expanduser("~/.cargo/registry/src")

# strings that must never appear in a sample (assembled so that this
# script does not contain them literally either)
FORBIDDEN = [
    "crates" + ".io",
    "py" + "pi",
    "python" + "hosted",
    "npm" + "js",
    "debian" + ".org",
    "registry" + ".yarnpkg",
]
SECRET_MARKERS = ["PRIVATE KEY", "BEGIN OPENSSH", "PRIVATE-KEY", "BEGIN PGP PRIVATE"]

MIN_CH, MAX_CH = 200, 40000
N_TARGET = 42
MAX_PER_FILE = 3


def clean_origin(s):
    # never let a forbidden host name slip into SOURCES through a path
    for f in FORBIDDEN:
        s = re.sub(re.escape(f), "[registry]", s, flags=re.I)
    return s


# --------------------------------------------------------------------------
# unpacking and package metadata
# --------------------------------------------------------------------------
Pkg = collections.namedtuple("Pkg", "key label licence root")


def unpack_all():
    os.makedirs(X, exist_ok=True)
    for sub in ("deb", "npm", "pyidx", "debctl"):
        os.makedirs(os.path.join(X, sub), exist_ok=True)
    for f in sorted(glob.glob(os.path.join(BASE, "deb", "*.deb"))):
        name = os.path.basename(f).split("_")[0]
        d = os.path.join(X, "deb", name)
        if not os.path.isdir(d):
            subprocess.run(["dpkg", "-x", f, d], check=True)
        c = os.path.join(X, "debctl", name)
        if not os.path.isdir(c):
            subprocess.run(["dpkg", "-e", f, c], check=True)
    for f in sorted(glob.glob(os.path.join(BASE, "npm", "*.tgz"))):
        d = os.path.join(X, "npm", os.path.basename(f)[:-4])
        if not os.path.isdir(d):
            os.makedirs(d)
            with tarfile.open(f) as t:
                t.extractall(d, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(d)
    for f in sorted(glob.glob(os.path.join(BASE, "pyidx", "*"))):
        b = os.path.basename(f)
        if b.endswith(".whl") or b.endswith(".zip"):
            d = os.path.join(X, "pyidx", b.rsplit(".", 1)[0])
            if not os.path.isdir(d):
                with zipfile.ZipFile(f) as z:
                    z.extractall(d)
        elif b.endswith(".tar.gz"):
            d = os.path.join(X, "pyidx", b[:-7])
            if not os.path.isdir(d):
                os.makedirs(d)
                with tarfile.open(f) as t:
                    t.extractall(d, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(d)


DEB_LICENCE_OVERRIDE = {
    "python3.11-doc": "PSF-2.0",
    "libpython3.11-stdlib": "PSF-2.0",
    "libpython3.11-testsuite": "PSF-2.0",
    # copyright files that are not machine-readable: licence read by hand
    "python3-yaml": "MIT",
    "python3-jinja2": "BSD-3-Clause",
    "fail2ban": "GPL-2.0-or-later",
    "python3-matplotlib": "Matplotlib License (PSF-based)",
    "logwatch": "X11",
    "unicode-data": "Unicode License Agreement (Unicode-DFS-2016)",
    "zsh-doc": "Zsh licence (MIT-Modern-Variant)",
    "logstalgia": "GPL-3.0-or-later",
}


def deb_licence(root, name):
    if name in DEB_LICENCE_OVERRIDE:
        return DEB_LICENCE_OVERRIDE[name]
    cands = glob.glob(os.path.join(root, "usr/share/doc", name, "copyright"))
    cands += glob.glob(os.path.join(root, "usr/share/doc/*/copyright"))
    for c in cands:
        try:
            txt = open(c, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        m = re.search(r"^Files:[ \t]*\*[ \t]*\n(?:[^\n]+\n)*?License:[ \t]*([^\n]+)", txt, re.M)
        if not m:
            m = re.search(r"^License:[ \t]*([^\n]+)", txt, re.M)
        if m:
            return m.group(1).strip()
    return "see the package's copyright file"


def deb_version(name):
    for f in glob.glob(os.path.join(BASE, "deb", name + "_*.deb")):
        v = os.path.basename(f).split("_")[1]
        return v.replace("%3a", ":")
    return "?"


def py_meta(root):
    metas = glob.glob(os.path.join(root, "*.dist-info", "METADATA")) + glob.glob(
        os.path.join(root, "*", "PKG-INFO"))
    name = ver = lic = None
    for m in metas:
        txt = open(m, encoding="utf-8", errors="replace").read()
        head = txt.split("\n\n", 1)[0]
        g = lambda k: (re.search(r"^" + k + r":\s*(.+)$", head, re.M) or [None, None])[1]
        name, ver = g("Name"), g("Version")
        lic = g("License-Expression")
        if not lic:
            l2 = g("License")
            if l2 and len(l2) < 60 and l2.strip().upper() != "UNKNOWN":
                lic = l2
        if not lic:
            cl = re.findall(r"^Classifier: License :: (?:OSI Approved :: )?(.+)$", head, re.M)
            if cl:
                lic = " / ".join(cl)
        break
    return name, ver, lic or "see package metadata"


def packages():
    pk = []
    for d in sorted(glob.glob(os.path.join(X, "deb", "*"))):
        name = os.path.basename(d)
        pk.append(Pkg("deb:" + name, "Debian package %s %s" % (name, deb_version(name)),
                      deb_licence(d, name), d))
    for d in sorted(glob.glob(os.path.join(X, "npm", "*"))):
        pj = os.path.join(d, "package", "package.json")
        try:
            j = json.load(open(pj, encoding="utf-8"))
        except Exception:
            continue
        lic = j.get("license") or j.get("licenses") or "see package"
        if isinstance(lic, dict):
            lic = lic.get("type")
        if isinstance(lic, list):
            lic = " OR ".join(str(x.get("type", x)) if isinstance(x, dict) else str(x) for x in lic)
        pk.append(Pkg("npm:" + j["name"], "npm %s %s" % (j["name"], j.get("version")), str(lic),
                      os.path.join(d, "package")))
    for d in sorted(glob.glob(os.path.join(X, "pyidx", "*"))):
        name, ver, lic = py_meta(d)
        if not name:
            continue
        kind = "sdist" if not glob.glob(os.path.join(d, "*.dist-info")) else "wheel"
        root = d
        subs = [s for s in glob.glob(os.path.join(d, "*")) if os.path.isdir(s)]
        if kind == "sdist" and len(subs) == 1:
            root = subs[0]
        pk.append(Pkg("py:" + name.lower(), "Python package index %s %s %s" % (kind, name, ver), lic, root))
    for d in sorted(glob.glob(os.path.join(CARGO_SRC, "*", "*"))):
        ct = os.path.join(d, "Cargo.toml")
        try:
            t = tomllib.load(open(ct, "rb"))["package"]
        except Exception:
            continue
        lic = t.get("license") or ("see " + t.get("license-file", "package")) 
        pk.append(Pkg("crate:" + t["name"], "crate %s %s" % (t["name"], t["version"]), lic, d))
    return pk


def walk(pkg):
    for dp, dn, fn in os.walk(pkg.root):
        dn[:] = [x for x in dn if x not in (".git", "__pycache__")]
        for f in fn:
            p = os.path.join(dp, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            yield p, os.path.relpath(p, pkg.root)


_cache = {}


def load(path):
    if path in _cache:
        return _cache[path]
    try:
        sz = os.path.getsize(path)
        if sz > 30_000_000:
            return None
        data = open(path, "rb").read()
        if path.endswith(".gz"):
            data = gzip.decompress(data)
        if b"\0" in data:
            return None
        t = data.decode("utf-8")
    except Exception:
        return None
    t = t.replace("\r\n", "\n")
    if t.startswith("\ufeff"):
        t = t[1:]
    if len(_cache) > 200:
        _cache.clear()
    _cache[path] = t
    return t


def bad(s):
    low = s.lower()
    if any(f in low for f in FORBIDDEN):
        return True
    if any(m.lower() in low for m in SECRET_MARKERS):
        return True
    return False


# --------------------------------------------------------------------------
# measures for dominated kinds
# --------------------------------------------------------------------------
B64_RUN = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}")
HEX_RUN = re.compile(r"[0-9a-fA-F]{8,}")
REP_RUN = re.compile(r"((.{1,4}?)\2{3,})")


def frac_b64(s):
    n = 0
    for m in B64_RUN.finditer(s):
        r = m.group(0)
        if re.search(r"[g-zG-Z+/]", r) and re.search(r"[0-9]", r):
            n += len(r)
    return n / max(1, len(s))


def frac_hex(s):
    # a run counts if it has a letter a-f or a 0x prefix (plain decimal numbers do not)
    n = 0
    for m in HEX_RUN.finditer(s):
        r = m.group(0)
        if re.search(r"[a-fA-F]", r) or s[max(0, m.start() - 2):m.start()] in ("0x", "0X"):
            n += len(r)
    return n / max(1, len(s))


def frac_rep(s):
    n = 0
    for m in REP_RUN.finditer(s):
        if len(m.group(1)) >= 12:
            n += len(m.group(1))
    return n / max(1, len(s))


def is_pretty_json_text(s):
    return len(re.findall(r"\n[ \t]+\S", s)) >= 3


def is_min_json_text(s):
    return s.count("\n") <= max(1, len(s) // 5000) and not re.search(r"[\[{,:]\n?[ \t]{2,}\S", s)


# --------------------------------------------------------------------------
# excerpting
# --------------------------------------------------------------------------
def excerpt(text, size, mode, check, rng, score=None, tries=10, free=lambda a, b: True):
    """Return (sample, offset) or None.  free(a, b) says whether text[a:b] does
    not overlap an excerpt already taken from the same file."""
    size = max(MIN_CH, min(MAX_CH, int(size)))
    best = None
    if len(text) <= size or len(text) <= MIN_CH * 1.2:
        if MIN_CH <= len(text) <= MAX_CH and free(0, len(text)) and not bad(text) and check(text):
            return text, 0
        if len(text) <= MAX_CH:
            tries = max(tries, 4)
    if mode == "chars":
        for i in range(tries):
            off = 0 if (i == 0 and rng.random() < 0.3) else rng.randrange(0, max(1, len(text) - size))
            s = text[off:off + size]
            if len(s) >= MIN_CH and free(off, off + len(s)) and not bad(s) and check(s):
                return s, off
        return None
    lines = text.splitlines(keepends=True)
    starts = []
    if rng.random() < 0.35:
        starts.append(0)
    total = len(text)
    # starting lines leaving enough text after them
    acc, cum = 0, []
    for ln in lines:
        cum.append(acc)
        acc += len(ln)
    valid = [i for i, c in enumerate(cum) if total - c >= min(size, total)] or [0]
    for _ in range(tries):
        starts.append(rng.choice(valid))
    for st in starts:
        out, n = [], 0
        for ln in lines[st:]:
            if n + len(ln) > MAX_CH:
                break
            out.append(ln)
            n += len(ln)
            if n >= size:
                break
        s = "".join(out)
        off = cum[st] if cum else 0
        if len(s) < MIN_CH or not free(off, off + len(s)) or bad(s) or not check(s):
            continue
        if score is None:
            return s, off
        sc = score(s)
        if best is None or sc > best[0]:
            best = (sc, (s, off))
    return best[1] if best else None


def log_sizes(n, rng):
    xs = [math.exp(rng.uniform(math.log(MIN_CH * 1.05), math.log(MAX_CH * 0.95))) for _ in range(n)]
    rng.shuffle(xs)
    return xs


def has_secret(t):
    low = t.lower()
    return any(m.lower() in low for m in SECRET_MARKERS)


def build(kind, cands, mode="lines", check=lambda s: True, score=None, n_target=N_TARGET,
          file_check=None, tries=10, note="", group=None, prefer=None):
    """cands: list of (pkg, path, rel); group(c) -> round-robin group key."""
    rng = random.Random("gather-b:" + kind)
    bypkg = collections.OrderedDict()
    for c in cands:
        bypkg.setdefault(group(c) if group else c[0].key, []).append(c)
    keys = list(bypkg)
    rng.shuffle(keys)
    for k in keys:
        rng.shuffle(bypkg[k])
        if prefer:
            bypkg[k].sort(key=lambda c: 0 if prefer(c) else 1)
    # the same file shipped by two packages (e.g. a Debian build and a wheel
    # of the same project) may be used from one package only
    def same(c):
        pkg, path, rel = c
        if "-packages/" in rel:
            return rel.split("-packages/")[-1]
        return rel if pkg.key.startswith("py:") else path
    rel_owner = {}
    sizes = log_sizes(n_target, rng)
    samples = []
    used = collections.Counter()
    ranges = collections.defaultdict(list)
    per_pkg = collections.Counter()
    checked = {}
    cap_pkg = max(2, math.ceil(n_target / max(1, len(keys))) + 1)
    for rnd in range(1, MAX_PER_FILE + 1):
        progress = True
        while progress and len(samples) < n_target:
            progress = False
            for k in keys:
                if len(samples) >= n_target:
                    break
                if per_pkg[k] >= cap_pkg * rnd:
                    continue
                size = sizes[len(samples) % len(sizes)]
                got = None
                attempts = 0
                for c in sorted(bypkg[k], key=lambda c: used[c[1]]):
                    pkg, path, rel = c
                    if used[path] >= rnd or checked.get(path) is False:
                        continue
                    if rel_owner.get(same(c), path) != path:
                        continue
                    attempts += 1
                    if attempts > 25:
                        break
                    t = load(path)
                    if t is None or len(t) < MIN_CH or has_secret(t):
                        checked[path] = False
                        continue
                    if file_check and path not in checked:
                        checked[path] = bool(file_check(t, path))
                        if not checked[path]:
                            continue
                    # prefer a file at least as big as the target size
                    if len(t) < size * 0.6 and attempts < 6 and rng.random() < 0.7:
                        continue
                    taken = ranges[path]
                    free = lambda a, b, taken=taken: all(b <= x or a >= y for x, y in taken)
                    r = excerpt(t, size, mode, check, rng, score, tries, free)
                    if r is None:
                        checked[path] = False
                        continue
                    s, off = r
                    got = (c, s, t)
                    taken.append((off, off + len(s)))
                    rel_owner[same(c)] = path
                    break
                if got:
                    c, s, t = got
                    used[c[1]] += 1
                    per_pkg[k] += 1
                    samples.append((c, s, t))
                    progress = True
        if len(samples) >= n_target:
            break
    write_kind(kind, samples, mode, note)
    return samples


def describe(s, t, mode):
    if s == t:
        return "whole file"
    off = t.find(s)
    if mode == "lines" and off >= 0:
        a = t.count("\n", 0, off) + 1
        b = a + s.count("\n") - (1 if s.endswith("\n") else 0)
        return "lines %d-%d" % (a, b)
    if off >= 0:
        return "characters %d-%d" % (off + 1, off + len(s))
    return "excerpt"


def write_kind(kind, samples, mode, note=""):
    d = os.path.join(OUT, kind)
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, kind + "-*.txt")):
        os.remove(f)
    rows = ["id\torigin\tlicence"]
    for i, ((pkg, path, rel), s, t) in enumerate(samples, 1):
        sid = "%s-%03d" % (kind, i)
        with open(os.path.join(d, sid + ".txt"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(s)
        how = describe(s, t, mode) if not isinstance(t, tuple) else t[1]
        extra = " (gunzipped)" if path.endswith(".gz") else ""
        origin = "%s: %s%s %s%s" % (pkg.label, rel, extra, how, note)
        rows.append("%s\t%s\t%s" % (sid, clean_origin(origin).replace("\t", " "),
                                     clean_origin(str(pkg.licence)).replace("\t", " ")))
    with open(os.path.join(d, "SOURCES.tsv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(rows) + "\n")
    lens = sorted(len(s) for _, s, _ in samples)
    print("%-12s n=%d total=%d min=%s med=%s max=%s pkgs=%d" % (
        kind, len(samples), sum(lens), lens[0] if lens else 0, lens[len(lens) // 2] if lens else 0,
        lens[-1] if lens else 0, len({c[0].key for c, _, _ in samples})))


# --------------------------------------------------------------------------
# kinds
# --------------------------------------------------------------------------
def ext(rel, *exts):
    r = rel.lower()
    return any(r.endswith(e) for e in exts)


def js_unminified(t):
    lines = t.splitlines() or [""]
    return max(len(l) for l in lines) < 400 and len(t) / len(lines) < 90


def js_minified(t):
    lines = t.splitlines() or [""]
    return len(t) / len(lines) > 400


def json_ok(t):
    try:
        json.loads(t)
        return True
    except Exception:
        return False


def csv_check(s):
    ls = [l for l in s.splitlines() if l.strip()]
    return len(ls) >= 3 and sum(1 for l in ls if "," in l or "\t" in l or ";" in l) >= 0.8 * len(ls)


def html_check(s):
    return s.count("<") >= 5


LOG_TS = re.compile(r"(\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\d\d:\d\d:\d\d|\[\d{1,2}/[A-Z][a-z]{2}/\d{4}"
                    r"|[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d|\d{10}\.\d+)")


def log_check(s):
    """most non-comment lines carry a timestamp; comment lines are a minority"""
    ls = [l for l in s.splitlines() if l.strip()]
    body = [l for l in ls if not l.lstrip().startswith("#")]
    if len(body) < 2:
        return False
    hit = sum(1 for l in body if LOG_TS.search(l[:80]))
    csum = sum(len(l) for l in ls if l.lstrip().startswith("#"))
    return hit >= 0.6 * len(body) and csum <= 0.5 * len(s)


def selectors():
    S = {}
    S["code-python"] = dict(sel=lambda p, r: ext(r, ".py") and p.key.split(":")[0] in ("deb", "py"))
    S["code-rust"] = dict(sel=lambda p, r: p.key.startswith("crate:") and ext(r, ".rs"))
    S["code-js"] = dict(sel=lambda p, r: ext(r, ".js", ".mjs", ".cjs") and ".min." not in r
                        and (p.key.startswith("npm:") or p.key.startswith("deb:")),
                        file_check=lambda t, path: js_unminified(t))
    S["code-c"] = dict(sel=lambda p, r: ext(r, ".c", ".h") and not ext(r, ".min.js"),
                       check=lambda s: ";" in s)
    S["js-min"] = dict(sel=lambda p, r: ext(r, ".min.js", "-min.js") and p.key.split(":")[0] in ("npm", "deb"),
                       mode="chars", file_check=lambda t, path: js_minified(t))
    S["json-pretty"] = dict(sel=lambda p, r: ext(r, ".json"),
                            file_check=lambda t, path: len(t) < 5_000_000 and is_pretty_json_text(t[:20000]) and json_ok(t),
                            check=is_pretty_json_text,
                            # package.json files are common: use them only where a package has no other JSON
                            prefer=lambda c: not c[2].endswith("package.json"),
                            group=lambda c: "package.json-%d" % (sum(map(ord, c[0].key)) % 5)
                            if c[2].endswith("package.json") else c[0].key)
    S["json-min"] = dict(sel=lambda p, r: ext(r, ".json", ".json.gz", ".map"),
                         mode="chars", file_check=lambda t, path: is_min_json_text(t[:50000]) and len(t) > 300 and json_ok(t),
                         prefer=lambda c: not c[2].endswith(".map"),
                         check=lambda s: True)
    S["yaml"] = dict(sel=lambda p, r: ext(r, ".yml", ".yaml"),
                     check=lambda s: ":" in s)
    S["toml"] = dict(sel=lambda p, r: ext(r, ".toml", "cargo.toml.orig") and not (p.key.startswith("crate:") and r == "Cargo.toml"),
                     check=lambda s: "=" in s)
    S["html"] = dict(sel=lambda p, r: ext(r, ".html", ".htm", ".html.en", ".xhtml") and "templates/" not in r,
                     check=html_check)
    S["csv"] = dict(sel=lambda p, r: ext(r, ".csv", ".csv.gz"), check=csv_check)
    S["log"] = dict(sel=lambda p, r: (ext(r, ".log", ".log.gz") or "/logs/" in "/" + r)
                    and not ext(r, ".py", ".html", ".rst", ".md", ".json", ".js"),
                    file_check=lambda t, path: log_check(t[:20000]), check=log_check)
    S["base64"] = dict(sel=lambda p, r: "key" not in os.path.basename(r).lower() and ext(r, ".pem", ".crt", ".eml", ".txt", ".css", ".svg", ".msg", ".mbox", ".b64", ".base64", ".html", ".js", ".json", ".py") and not ext(r, ".min.js"),
                       file_check=lambda t, path: frac_b64(t[:400000]) > 0.25,
                       check=lambda s: frac_b64(s) >= 0.5, score=frac_b64, tries=25)
    S["hex"] = dict(sel=lambda p, r: True,
                    file_check=lambda t, path: frac_hex(t[:400000]) > 0.3,
                    # checksum lists are spread over a few round-robin groups so
                    # that they get a fair share next to the per-package groups
                    group=lambda c: "cargo-vendor-%d" % (sum(map(ord, c[0].key)) % 5)
                    if c[2] == ".cargo-checksum.json" else (
                        "md5sums-%d" % (sum(map(ord, c[0].key)) % 4) if c[2] == "DEBIAN/md5sums" else c[0].key),
                    check=lambda s: frac_hex(s) >= 0.5, score=frac_hex, tries=25)
    S["repeats"] = dict(sel=lambda p, r: not ext(r, ".min.js", ".map", ".png", ".gif", ".jpg", ".woff", ".woff2", ".ttf", ".svg"),
                        file_check=lambda t, path: frac_rep(t[:300000]) > 0.25,
                        # source code qualifies only through deep indentation: try data/text first
                        prefer=lambda c: not ext(c[2], ".rs", ".py", ".js", ".c", ".h", ".s", ".cc", ".cpp", ".ts"),
                        check=lambda s: frac_rep(s) >= 0.5, score=frac_rep, tries=25)
    return S


def index(pkgs):
    idx = []
    for p in pkgs:
        for path, rel in walk(p):
            idx.append((p, path, rel))
    # extra pseudo-packages: cargo vendor checksum files and Debian md5sums
    return idx


def extra_hex(pkgs):
    byname = {p.key: p for p in pkgs}
    out = []
    for f in sorted(glob.glob(os.path.join(BASE, "crate", "vendor", "*", ".cargo-checksum.json"))):
        dn = os.path.basename(os.path.dirname(f))
        ct = os.path.join(os.path.dirname(f), "Cargo.toml")
        try:
            t = tomllib.load(open(ct, "rb"))["package"]
        except Exception:
            continue
        p = Pkg("crate:" + t["name"], "crate %s %s (cargo vendor output)" % (t["name"], t["version"]),
                t.get("license") or "see package", os.path.dirname(f))
        out.append((p, f, ".cargo-checksum.json"))
    for f in sorted(glob.glob(os.path.join(X, "debctl", "*", "md5sums"))):
        name = os.path.basename(os.path.dirname(f))
        base = byname.get("deb:" + name)
        if base is None:
            continue
        p = Pkg(base.key, base.label + " control archive", base.licence, os.path.dirname(f))
        out.append((p, f, "DEBIAN/md5sums"))
    return out


def reserialised_json(idx, have, n_need):
    """Fallback for json-min: compact re-serialisation of real pretty JSON."""
    rng = random.Random("gather-b:json-min-fallback")
    cands = [c for c in idx if ext(c[2], ".json") and not c[2].endswith("package.json")]
    rng.shuffle(cands)
    seen_pk = collections.Counter(c[0].key for c, _, _ in have)
    out = []
    for c in cands:
        if len(out) >= n_need:
            break
        if seen_pk[c[0].key] >= 2:
            continue
        t = load(c[1])
        if not t or not is_pretty_json_text(t[:20000]) or len(t) > 3_000_000:
            continue
        try:
            obj = json.loads(t)
        except Exception:
            continue
        m = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        size = math.exp(rng.uniform(math.log(MIN_CH * 1.05), math.log(MAX_CH * 0.95)))
        r = excerpt(m, size, "chars", lambda s: True, rng)
        if not r:
            continue
        s = r[0]
        seen_pk[c[0].key] += 1
        off = m.find(s)
        how = "re-serialised with json.dumps(separators=(',',':'), ensure_ascii=False), characters %d-%d of the result" % (off + 1, off + len(s))
        out.append((c, s, (m, how)))
    return out


def verify(kinds):
    """Check the written corpus against the sampling rules."""
    ok = True
    for kind in kinds:
        d = os.path.join(OUT, kind)
        files = sorted(glob.glob(os.path.join(d, kind + "-*.txt")))
        rows = open(os.path.join(d, "SOURCES.tsv"), encoding="utf-8").read().splitlines()
        ids = [r.split("\t")[0] for r in rows[1:]]
        if rows[0] != "id\torigin\tlicence" or ids != [os.path.basename(f)[:-4] for f in files]:
            print(kind, "SOURCES does not match files"); ok = False
        lens, nbytes = [], 0
        for f in files:
            b = open(f, "rb").read()
            t = b.decode("utf-8")
            nbytes += len(b)
            lens.append(len(t))
            if not MIN_CH <= len(t) <= MAX_CH or bad(t) or "\r" in t:
                print(kind, os.path.basename(f), "breaks a rule"); ok = False
        if bad(open(os.path.join(d, "SOURCES.tsv"), encoding="utf-8").read().replace("PRIVATE KEY", "")):
            print(kind, "SOURCES has a forbidden string"); ok = False
        per_file = collections.Counter(re.sub(r" (lines|characters) \d+-\d+$| whole file$", "", r.split("\t")[1]) for r in rows[1:])
        if per_file and max(per_file.values()) > MAX_PER_FILE:
            print(kind, "more than 3 samples from one file"); ok = False
        if not 36 <= len(files) <= 48 or nbytes > 600_000:
            print(kind, "count/size out of range", len(files), nbytes); ok = False
        lens.sort()
        pk = {re.sub(r"^(.*?\d\S*)(?: \(cargo vendor output\)| control archive)?: .*$", r"\1", r.split("\t")[1]) for r in rows[1:]}
        print("%-12s n=%d total_chars=%d bytes=%d min=%d median=%d max=%d packages=%d" % (
            kind, len(lens), sum(lens), nbytes, lens[0], lens[len(lens) // 2], lens[-1], len(pk)))
    return ok


def main(argv):
    if argv[:1] == ["--verify"]:
        sys.exit(0 if verify(argv[1:] or list(selectors())) else 1)
    unpack_all()
    pkgs = packages()
    print("packages:", len(pkgs), file=sys.stderr)
    idx = index(pkgs)
    print("files:", len(idx), file=sys.stderr)
    S = selectors()
    kinds = argv or list(S)
    for kind in kinds:
        spec = dict(S[kind])
        sel = spec.pop("sel")
        cands = [c for c in idx if sel(c[0], c[2])]
        if kind == "hex":
            cands += extra_hex(pkgs)
        if kind == "json-min":
            samples = build(kind, cands, **spec)
            if len(samples) < 38:
                samples = samples + reserialised_json(idx, samples, 40 - len(samples))
                write_kind(kind, samples, "chars")
            continue
        build(kind, cands, **spec)


if __name__ == "__main__":
    main(sys.argv[1:])
