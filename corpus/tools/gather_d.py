#!/usr/bin/env python3
"""Extend every calibration kind from 42 to 60 samples: append samples
<kind>-043 .. <kind>-060 and their SOURCES.tsv rows, leaving samples 001..042
and their rows exactly as they are.

The sources and checks are those of the three gather scripts beside this one,
imported as modules (nothing of theirs is changed, and none of their writing
functions runs: their OUT is pointed at a temporary directory):

  gather_a.py  prose-{en,de,fr,es,ru,zh,ja,ko,ar,hi}, chat, emoji, markdown,
               latex: each kind's pool is built by gather_a's own kind function,
               whose call to gather_a.build() is intercepted and replaced by
               build_a() below (same group round-robin, weights, excerpting,
               checks, byte budget scaled to 18 samples);
  gather_b.py  code-*, js-min, json-*, yaml, toml, html, csv, log, base64, hex,
               repeats: gather_b's package index and selectors() (selection,
               file checks, excerpt checks, scores, groups, preferences), its
               excerpt() and the same package round-robin (build_b());
  gather_c.py  prose-indic: gather_c's languages, catalogs and script check;
               every language ends with 6 samples (build_c()).

The sources must already be downloaded and unpacked (each script's --fetch);
this script downloads nothing.  Randomness is seeded with "gather-d:<kind>",
so a re-run gives the same samples (on the same machine: prose-en and the
gettext kinds of gather_a also read man pages and catalogs installed here,
as gather_a does).  Two differences in the pools, both for a stable and
honest result: of the Rust crates in ~/.cargo/registry/src (which grows
with other work) only those resolved by the two gather projects' Cargo.lock
files are used (CRATE_LOCKS; every crate of the earlier samples is among
them), and packages installed here from outside Debian's archive are left
out (NOT_DEBIAN).

Rules for a new sample, on top of the kind's own checks:
  * 200..40000 characters; text never edited (CRLF -> LF only, as before);
  * none of the FORBIDDEN strings, none of gather_b's secret markers, no
    token-like secret (SECRET_RE);
  * files used by no existing sample (001..042 of any kind, read from the
    SOURCES.tsv files) are taken first; a file already used is taken only if
    the kind's pool runs short, and then only with a line/character range
    disjoint from every earlier excerpt of that file (a file used by a kind of
    the other script family, whose line numbers count other text, is never
    reused); at most 3 samples per file in all, as in the earlier builds;
  * no 200-character window of a new sample occurs in any other sample, old
    or new, of any kind (so no sample is identical to or contained in
    another).

Usage:
    python3 gather_d.py [kind ...]        # (re)build 043..060 of the kinds
                                          # (default: all 30; a full run is
                                          # the canonical one)
    python3 gather_d.py --verify [kind ...]
        # counts, ids vs files, UTF-8, sizes, FORBIDDEN strings, secrets, and
        # the 200-character-window overlap test of every new sample against
        # every other sample

Running it again first drops the kind's samples numbered above 042 and their
SOURCES rows, then appends the new ones: rows are never duplicated.
"""
import atexit
import collections
import glob
import math
import os
import random
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gather_a as ga  # noqa: E402
import gather_b as gb  # noqa: E402
import gather_c as gc  # noqa: E402

OUT = os.path.normpath(os.path.join(HERE, ".."))
N_OLD, N_NEW = 42, 18
MIN_CH, MAX_CH = 200, 40000
FORBIDDEN = ga.FORBIDDEN
assert FORBIDDEN == gb.FORBIDDEN
SECRET_RE = re.compile(r"AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36}|xox[abprs]-[A-Za-z0-9-]{10,}"
                       r"|sk_live_[0-9A-Za-z]{20,}|-----BEGIN [A-Z ]*PRIVATE")
WIN = 200  # overlap window

# ~/.cargo/registry/src holds every crate this machine ever fetched, and grows
# with other work; only the crates of the two throwaway projects that
# gather_a --fetch and gather_b's setup resolved are used, so that the pools
# stay the same from run to run
CRATE_LOCKS = [ga.WORK + "/cr/Cargo.lock", gb.BASE + "/crate/proj/Cargo.lock"]


def locked_crates():
    s = set()
    for f in CRATE_LOCKS:
        for m in re.finditer(r'^name = "([^"]+)"\nversion = "([^"]+)"', open(f, encoding="utf-8").read(), re.M):
            s.add(m.groups())
    return s


LOCKED = locked_crates()


# packages installed on this machine that did not come from Debian's archive
# (gather_a reads installed man pages and catalogs, labelled "Debian
# package"); none of them is used
NOT_DEBIAN = re.compile(r"^Debian package (google-cloud-cli\S*|kubectl|nodejs) ")


def crate_ok(label):
    """False for a crate of the registry that the gather projects did not fetch"""
    m = re.match(r"(?:Rust )?crate (\S+) (\S+?)(?: \(cargo vendor output\))?$", label)
    return not m or m.groups() in LOCKED

# the imported scripts must never write into a corpus
_TMP = tempfile.mkdtemp(prefix="gather_d-")
atexit.register(shutil.rmtree, _TMP, True)
ga.OUT = gb.OUT = gc.OUT = _TMP

A_KINDS = ["prose-" + l for l in ("en", "de", "fr", "es", "ru", "zh", "ja", "ko", "ar", "hi")] + \
    ["chat", "emoji", "markdown", "latex"]
B_KINDS = list(gb.selectors())
C_KINDS = ["prose-indic"]
ALL_KINDS = B_KINDS + C_KINDS + A_KINDS   # processing order of a full run
FAMILY = dict([(k, "a") for k in A_KINDS + C_KINDS] + [(k, "b") for k in B_KINDS])


# --------------------------------------------------------------- existing samples

def sid_num(sid):
    return int(sid.rsplit("-", 1)[1])


def read_sources(kind):
    lines = open(os.path.join(OUT, kind, "SOURCES.tsv"), encoding="utf-8").read().split("\n")
    assert lines[0] == "id\torigin\tlicence", kind
    return lines[0], [l for l in lines[1:] if l]


def old_rows(kind):
    _, rows = read_sources(kind)
    old = [r for r in rows if sid_num(r.split("\t")[0]) <= N_OLD]
    assert [r.split("\t")[0] for r in old] == ["%s-%03d" % (kind, i) for i in range(1, N_OLD + 1)], kind
    return old


WHERE_RE = re.compile(r"(lines \d+-\d+|characters \d+-\d+|whole file|excerpt)$")
A_HOWS = ["rendered with man -l | col -bx (MANWIDTH=80)", "gunzipped plain-text edition",
          "msgstr texts decoded from the .mo catalog, one per line",
          "text extracted from the HTML (tags stripped)", "decoded from legacy 8-bit encoding",
          "gunzipped"]


def file_key(label, path):
    """(ecosystem:name, path) of a source file, the same for the labels and
    paths of gather_a, gather_b and gather_c (versions ignored)."""
    label = re.sub(r" \(cargo vendor output\)$| control archive$", "", label)
    path = re.sub(r" \(gunzipped\)$", "", path)
    m = re.match(r"Debian package (\S+) \S+$", label)
    if m:
        return "deb:" + m.group(1), path
    m = re.match(r"npm (?:package )?(\S+) \S+$", label)
    if m:
        return "npm:" + m.group(1), re.sub(r"^package/", "", path)
    m = re.match(r"Python package (?:index (?:sdist|wheel) )?(\S+) \S+(?: \((?:sdist|wheel)\))?$", label)
    if m:
        return "py:" + m.group(1).lower().replace("_", "-"), path
    m = re.match(r"(?:Rust )?crate (\S+) \S+$", label)
    if m:
        return "crate:" + m.group(1), path
    return "?:" + label, path


def parse_origin(kind, origin):
    """-> (file key, where) of an existing SOURCES origin."""
    where = WHERE_RE.search(origin).group(1)
    rest = origin[:-len(where)].rstrip()
    label, path = rest.split(": ", 1)
    if FAMILY[kind] == "a":
        path = path.rstrip(",")
        for how in A_HOWS:
            if path.endswith(", " + how):
                path = path[:-len(how) - 2]
                break
    return file_key(label, path), where


def prior_uses():
    """file key -> [(family, where)] over samples 001..042 of every kind."""
    pr = collections.defaultdict(list)
    for kind in ALL_KINDS:
        for r in old_rows(kind):
            key, where = parse_origin(kind, r.split("\t")[1])
            pr[key].append((FAMILY[kind], where))
    return pr


# --------------------------------------------------------------- overlap index

class Novelty:
    """Exact test whether a text shares a WIN-character substring with any
    indexed text: every indexed text contributes its WIN/2-character blocks at
    offsets 0, WIN/2, 2*WIN/2, ...; any common substring of WIN characters
    contains one such block whole."""
    K = WIN // 2

    def __init__(self):
        self.texts = {}
        self.idx = collections.defaultdict(list)

    def add(self, sid, text):
        self.texts[sid] = text
        for p in range(0, len(text) - self.K + 1, self.K):
            self.idx[text[p:p + self.K]].append((sid, p))

    def clash(self, text, skip=None):
        """sid of an indexed text sharing >= WIN characters with text, else None"""
        K, idx = self.K, self.idx
        for i in range(len(text) - K + 1):
            hits = idx.get(text[i:i + K])
            if not hits:
                continue
            for sid, p in hits:
                if sid == skip:
                    continue
                o = self.texts[sid]
                l = 0
                while l < WIN - K and i - l > 0 and p - l > 0 and text[i - l - 1] == o[p - l - 1]:
                    l += 1
                r = K
                while l + r < WIN and i + r < len(text) and p + r < len(o) and text[i + r] == o[p + r]:
                    r += 1
                if l + r >= WIN:
                    return sid
        return None


def sample_text(path):
    return open(path, encoding="utf-8").read()


def secret_free(t):
    return not gb.has_secret(t) and not SECRET_RE.search(t)


def forbidden_free(t):
    low = t.lower()
    return not any(f in low for f in FORBIDDEN)


class Ctx:
    def __init__(self, kinds):
        self.prior = prior_uses()
        self.nov = Novelty()
        for kind in ALL_KINDS:
            for f in sorted(glob.glob(os.path.join(OUT, kind, kind + "-*.txt"))):
                sid = os.path.basename(f)[:-4]
                if sid_num(sid) <= N_OLD or kind not in kinds:
                    self.nov.add(sid, sample_text(f))
        self.rejected = collections.Counter()

    def novel(self, kind, t):
        if not (forbidden_free(t) and secret_free(t)):
            self.rejected[kind, "forbidden/secret"] += 1
            return False
        if self.nov.clash(t) is not None:
            self.rejected[kind, "overlap"] += 1
            return False
        return True


# --------------------------------------------------------------- writing

def write_kind(ctx, kind, samples, rows):
    """samples: [text as written]; rows: [(origin, licence)]"""
    d = os.path.join(OUT, kind)
    header, _ = read_sources(kind)
    old = old_rows(kind)
    for f in glob.glob(os.path.join(d, kind + "-*.txt")):
        if sid_num(os.path.basename(f)[:-4]) > N_OLD:
            os.remove(f)
    new_rows = []
    for i, (s, (origin, lic)) in enumerate(zip(samples, rows), N_OLD + 1):
        sid = "%s-%03d" % (kind, i)
        with open(os.path.join(d, sid + ".txt"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(s)
        new_rows.append("\t".join([sid, gb.clean_origin(origin).replace("\t", " "),
                                   gb.clean_origin(str(lic)).replace("\t", " ")]))
    with open(os.path.join(d, "SOURCES.tsv"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join([header] + old + new_rows) + "\n")
    lens = sorted(len(s) for s in samples)
    reused = sum(1 for o, _ in rows if parse_origin(kind, o)[0] in ctx.prior)
    srcs = collections.Counter(file_key(o.split(": ", 1)[0], "")[0] for o, _ in rows)
    print("%-12s new=%d chars %d..%d bytes=%d from files used before=%d sources: %s" % (
        kind, len(samples), lens[0] if lens else 0, lens[-1] if lens else 0,
        sum(len(s.encode("utf-8")) for s in samples), reused,
        ", ".join("%s %d" % kv for kv in sorted(srcs.items(), key=lambda kv: (-kv[1], kv[0])))),
        flush=True)


# --------------------------------------------------------------- shared by the builders

def disjoint(taken):
    """free(a, b): whether [a, b) overlaps none of the ranges in taken (read when called)"""
    return lambda a, b: all(b <= x or a >= y for x, y in taken)


def a_where(d, a, b):
    """SOURCES 'where' of lines a..b (1-based) of an a-family doc"""
    nl = d.text.count("\n") + 1
    return "lines %d-%d" % (a, b) if not (a == 1 and b >= nl - 1) else "whole file"


def a_prior(ctx, d, used, taken, prior):
    """Registers an a-family doc's earlier uses (the first doc of a file
    decides); returns them."""
    d.key = file_key(d.pkg, d.path)
    uses = ctx.prior.get(d.key, [])
    if d.key not in used:
        rg = a_ranges(uses)
        prior[d.key] = len(uses)
        used[d.key] = 3 if rg is None else len(uses)
        taken[d.key] = rg or []
    return uses


# --------------------------------------------------------------- gather_a kinds

def a_ranges(uses):
    """line-index ranges [a, b) taken in an a-family doc; None = blocked"""
    out = []
    for fam, where in uses:
        if fam != "a" or where in ("whole file", "excerpt") or where.startswith("characters"):
            return None
        a, b = map(int, where.split()[1].split("-"))
        out.append((a - 1, b))
    return out


def a_excerpt(rng, doc, target, check, free, tries=12):
    """gather_a.excerpt() plus free(first line, end line) for taken ranges."""
    lines = doc.text.split("\n")
    n = len(lines)
    total = len(doc.text)
    cum, pos = 0, []
    for l in lines:
        pos.append(cum)
        cum += len(l) + 1
    cands = [i for i in range(n) if pos[i] <= total - target] or [0]
    for attempt in range(tries):
        if total <= target:
            start = 0
        else:
            start = 0 if attempt == 0 and rng.random() < 0.3 else rng.choice(cands)
        while start < n and not lines[start].strip():
            start += 1
        out, size = [], 0
        i = start
        while i < n and size < target:
            if size + len(lines[i]) + 1 > ga.MAX_CHARS:
                break
            out.append(lines[i])
            size += len(lines[i]) + 1
            i += 1
        t = "\n".join(out).strip("\n").rstrip()
        if len(t) < ga.MIN_CHARS or len(t) > ga.MAX_CHARS:
            if total <= target:
                return None
            continue
        if not free(start, start + len(out)):
            continue
        if ga.clean_ok(t) and check(t):
            return t, start + 1, start + len(out)
    return None


def a_targets(seed, n, max_bytes, bpc):
    """gather_a.build()'s sizes: log-uniform, squeezed to the byte budget"""
    rng = random.Random(seed)
    tg = ga.targets(rng, n)
    alpha = 1.0
    while sum(tg) * bpc > max_bytes * 0.9 and alpha > 0.3:
        alpha -= 0.05
        tg = [int(math.exp(math.log(ga.MIN_CHARS * 1.05) + (math.log(t) - math.log(ga.MIN_CHARS * 1.05)) * alpha))
              for t in ga.targets(random.Random(seed), n)]
    return rng, tg


def build_a(ctx, kind, docs, check, bpc, max_bytes=590_000):
    seed = "gather-d:" + kind
    budget = max_bytes * N_NEW / N_OLD
    rng, tg = a_targets(seed, N_NEW, budget, bpc)
    rng.shuffle(tg)
    docs = [d for d in docs if d.text and len(d.text.strip()) >= ga.MIN_CHARS and crate_ok(d.pkg)
            and not NOT_DEBIAN.match(d.pkg)]
    used, taken, prior = {}, {}, {}
    for d in docs:
        a_prior(ctx, d, used, taken, prior)
    groups = {}
    for d in docs:
        groups.setdefault(d.group, []).append(d)
    gkeys = []
    for g in sorted(groups):
        gkeys += [g] * max(d.weight for d in groups[g])
    rng.shuffle(gkeys)
    for g in gkeys:
        rng.shuffle(groups[g])
    chk = lambda t: check(t) and ctx.novel(kind, t)
    # phase 1 takes only files that no earlier sample used, and at most about
    # a group's share of the rotation from one group (as gather_b caps a
    # package per round), so that the few groups with unused files do not
    # take every sample; phase 2 lifts the cap and, in a group without unused
    # files left, takes used ones (disjoint line ranges only)
    share = collections.Counter(gkeys)
    cap1 = {g: max(2, math.ceil(share[g] * N_NEW / len(gkeys)) + 1) for g in share}
    per_group = collections.Counter()
    samples, rows, total_bytes, gi = [], [], 0, 0
    for phase in (1, 2):
        fails = 0
        while len(rows) < N_NEW and fails < 400:
            target = tg[len(rows) % len(tg)]
            g = gkeys[gi % len(gkeys)]
            gi += 1
            fresh = [d for d in groups[g] if used[d.key] < 3 and prior[d.key] == 0]
            if phase == 1:
                cands = fresh if per_group[g] < cap1[g] else []
            else:
                cands = fresh or [d for d in groups[g] if used[d.key] < 3]
            if not cands:
                fails += 1
                continue
            big = [d for d in cands if len(d.text) >= target * 0.9]
            d = rng.choice(big) if big else max(cands, key=lambda d: len(d.text))
            tk = taken[d.key]
            r = a_excerpt(rng, d, target, chk, disjoint(tk))
            if r is None:
                used[d.key] += 1
                fails += 1
                continue
            t, a, b = r
            if len(t) >= len(d.text.strip()):
                used[d.key] = 3
            nb = len(t.encode("utf-8")) + 1
            if total_bytes + nb > budget:
                fails += 1
                continue
            used[d.key] += 1
            per_group[g] += 1
            tk.append((a - 1, b))
            total_bytes += nb
            sid = "%s-%03d" % (kind, N_OLD + len(rows) + 1)
            ctx.nov.add(sid, t + "\n")
            samples.append(t + "\n")
            rows.append(("%s: %s%s, %s" % (d.pkg, d.path, (", " + d.how) if d.how else "", a_where(d, a, b)),
                         d.licence))
    return samples, rows


def run_a(ctx, kind):
    got = {}

    def capture(kind_, docs, check, n=42, seed=1, max_bytes=590_000, bpc=1.05):
        got.update(kind=kind_, docs=docs, check=check, bpc=bpc, max_bytes=max_bytes)
    saved = ga.build
    ga.build = capture
    try:
        ga.KINDS[kind]()
    finally:
        ga.build = saved
    assert got["kind"] == kind
    return build_a(ctx, kind, got["docs"], got["check"], got["bpc"], got["max_bytes"])


# --------------------------------------------------------------- gather_c (prose-indic)

def build_c(ctx, kind="prose-indic"):
    rng = random.Random("gather-d:" + kind)
    saved = ga.X
    ga.X = gc.X   # mo_docs() reads the unpacked packages from here (as gather_c does)
    try:
        pools = {}
        for lang in sorted(gc.LANGS):
            locs, block = gc.LANGS[lang]
            docs = [d for d in ga.mo_docs(locs, extra_installed=False) if len(d.text.strip()) >= ga.MIN_CHARS]
            docs = [d for d in docs if ga.script_ratio(d.text, [block[0]], [block[1]]) >= 0.5]
            pools[lang] = (docs, gc.check_for(block))
    finally:
        ga.X = saved
    # sizes as gather_c: log-uniform, squeezed to the byte budget, sorted, dealt
    # out in rounds; 10 + 8 slots: every language ends with 6 samples
    # (gather_c gave 4 to each and a fifth to te and or)
    tg = sorted(a_targets(kind + ":d", N_NEW, 590_000 * N_NEW / N_OLD, 2.7)[1])
    r1 = sorted(gc.LANGS)
    rng.shuffle(r1)
    r2 = [l for l in sorted(gc.LANGS) if l not in gc.EXTRA]
    rng.shuffle(r2)
    slots = list(zip(r1 + r2, tg))
    assert len(slots) == N_NEW
    # earlier use of each catalog
    old_groups = collections.defaultdict(set)
    used, taken, prior = {}, {}, {}
    for lang, (docs, _) in pools.items():
        for d in docs:
            if a_prior(ctx, d, used, taken, prior):
                old_groups[lang].add(d.group)
    out = {l: [] for l in gc.LANGS}
    for lang, target in slots:
        docs, check = pools[lang]
        chk = lambda t, check=check: check(t) and ctx.novel(kind, t)
        new_groups = {x[2].group for x in out[lang]}
        tiers = [
            [d for d in docs if prior[d.key] == 0 and used[d.key] == 0
             and d.group not in new_groups and d.group not in old_groups[lang]],
            [d for d in docs if prior[d.key] == 0 and used[d.key] == 0 and d.group not in new_groups],
            [d for d in docs if prior[d.key] == 0 and used[d.key] < 3],
            [d for d in docs if used[d.key] < 3],
        ]
        got = None
        for cands in tiers:
            cands = cands[:]
            rng.shuffle(cands)
            big = [d for d in cands if len(d.text) >= target * 0.9]
            for d in (big or sorted(cands, key=lambda d: -len(d.text))):
                tk = taken[d.key]
                r = a_excerpt(rng, d, target, chk, disjoint(tk))
                if r is None:
                    used[d.key] += 1
                    continue
                got = (target, r[0], d, r[1], r[2])
                break
            if got:
                break
        if got is None:
            print("no sample for %s at %d chars" % (lang, target), file=sys.stderr)
            continue
        _, t, d, a, b = got
        used[d.key] = 3 if len(t) >= len(d.text.strip()) else used[d.key] + 1
        taken[d.key].append((a - 1, b))
        ctx.nov.add("%s:%s:%d" % (kind, lang, len(out[lang])), t + "\n")
        out[lang].append(got)
    samples, rows = [], []
    for lang in ["bn", "as", "pa", "gu", "or", "ta", "te", "kn", "ml", "si"]:
        for target, t, d, a, b in sorted(out[lang], key=lambda x: len(x[1])):
            samples.append(t + "\n")
            rows.append(("%s: %s, %s, %s" % (d.pkg, d.path, d.how, a_where(d, a, b)), d.licence))
    return samples, rows


# --------------------------------------------------------------- gather_b kinds

def b_offsets(text, uses):
    """character ranges [a, b) taken in a file by earlier samples; None = blocked"""
    out = []
    lines = None
    for fam, where in uses:
        if fam != "b" or where in ("whole file", "excerpt"):
            return None
        a, b = map(int, where.split()[1].split("-"))
        if where.startswith("characters"):
            out.append((a - 1, b))
            continue
        if lines is None:
            lines = text.splitlines(keepends=True)
            cum = [0]
            for ln in lines:
                cum.append(cum[-1] + len(ln))
        if b > len(lines):
            return None
        out.append((cum[a - 1], cum[b]))
    return out


def build_b(ctx, kind, cands, mode="lines", check=lambda s: True, score=None,
            file_check=None, tries=10, note="", group=None, prefer=None):
    """gather_b.build() for N_NEW samples: the same package round-robin, at
    most 3 samples a file, files no earlier sample used first (round 1)."""
    rng = random.Random("gather-d:" + kind)
    bypkg = collections.OrderedDict()
    for c in cands:
        bypkg.setdefault(group(c) if group else c[0].key, []).append(c)
    keys = list(bypkg)
    rng.shuffle(keys)
    for k in keys:
        rng.shuffle(bypkg[k])
        if prefer:
            bypkg[k].sort(key=lambda c: 0 if prefer(c) else 1)

    def same(c):
        pkg, path, rel = c
        if "-packages/" in rel:
            return rel.split("-packages/")[-1]
        return rel if pkg.key.startswith("py:") else path
    rel_owner = {}
    sizes = gb.log_sizes(N_NEW, rng)
    samples = []
    used = collections.Counter()
    prior_of = {}
    for c in cands:
        uses = ctx.prior.get(file_key(c[0].label, c[2]), [])
        prior_of[c[1]] = uses
        used[c[1]] = max(used[c[1]], len(uses) if all(f == "b" for f, _ in uses) else gb.MAX_PER_FILE)
    ranges = {}
    per_pkg = collections.Counter()
    checked = {}
    cap_pkg = max(2, math.ceil(N_NEW / max(1, len(keys))) + 1)
    chk = lambda s: check(s) and ctx.novel(kind, s)
    for rnd in range(1, gb.MAX_PER_FILE + 1):
        progress = True
        while progress and len(samples) < N_NEW:
            progress = False
            for k in keys:
                if len(samples) >= N_NEW:
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
                    t = gb.load(path)
                    if t is None or len(t) < MIN_CH or gb.has_secret(t):
                        checked[path] = False
                        continue
                    if file_check and path not in checked:
                        checked[path] = bool(file_check(t, path))
                        if not checked[path]:
                            continue
                    if len(t) < size * 0.6 and attempts < 6 and rng.random() < 0.7:
                        continue
                    if path not in ranges:
                        ranges[path] = b_offsets(t, prior_of[path])
                        if ranges[path] is None:
                            checked[path] = False
                            continue
                    taken = ranges[path]
                    r = gb.excerpt(t, size, mode, chk, rng, score, tries, disjoint(taken))
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
                    ctx.nov.add("%s:new%d" % (kind, len(samples)), s)
                    samples.append((c, s, t))
                    progress = True
        if len(samples) >= N_NEW:
            break
    texts, rows = [], []
    for (pkg, path, rel), s, t in samples:
        how = gb.describe(s, t, mode)
        extra = " (gunzipped)" if path.endswith(".gz") else ""
        texts.append(s)
        rows.append(("%s: %s%s %s%s" % (pkg.label, rel, extra, how, note), pkg.licence))
    return texts, rows


_B = {}


def run_b(ctx, kind):
    if not _B:
        assert os.path.isdir(gb.X), "gather_b's sources are not unpacked"
        pkgs = [p for p in gb.packages() if crate_ok(p.label)]
        _B.update(pkgs=pkgs, idx=gb.index(pkgs), S=gb.selectors())
        print("gather_b index: %d packages, %d files" % (len(pkgs), len(_B["idx"])), file=sys.stderr)
    spec = dict(_B["S"][kind])
    sel = spec.pop("sel")
    cands = [c for c in _B["idx"] if sel(c[0], c[2])]
    if kind == "hex":
        cands += gb.extra_hex(_B["pkgs"])
    return build_b(ctx, kind, cands, **spec)


# --------------------------------------------------------------- verify

def verify(kinds):
    ok = True
    nov = Novelty()
    new = []
    for kind in ALL_KINDS:
        for f in sorted(glob.glob(os.path.join(OUT, kind, kind + "-*.txt"))):
            sid = os.path.basename(f)[:-4]
            try:
                t = open(f, "rb").read().decode("utf-8")
            except UnicodeDecodeError:
                print(sid, "is not UTF-8")
                ok = False
                continue
            nov.add(sid, t)
            if kind in kinds and not MIN_CH <= len(t) <= MAX_CH:
                print(sid, "has %d characters" % len(t))
                ok = False
            if kind in kinds and sid_num(sid) > N_OLD:
                new.append((kind, sid, t))
    for kind in kinds:
        d = os.path.join(OUT, kind)
        files = sorted(os.path.basename(f)[:-4] for f in glob.glob(os.path.join(d, "*.txt")))
        _, rows = read_sources(kind)
        ids = [r.split("\t")[0] for r in rows]
        want = ["%s-%03d" % (kind, i) for i in range(1, N_OLD + N_NEW + 1)]
        if files != want or ids != want or any(len(r.split("\t")) != 3 for r in rows):
            print(kind, "files or SOURCES rows are not %s-001..%03d" % (kind, N_OLD + N_NEW))
            ok = False
        src = open(os.path.join(d, "SOURCES.tsv"), encoding="utf-8").read()
        if not forbidden_free(src):
            print(kind, "SOURCES.tsv has a forbidden string")
            ok = False
    windows = 0
    for kind, sid, t in new:
        if "\r" in t:
            print(sid, "has a CR")
            ok = False
        if not forbidden_free(t) or not secret_free(t):
            print(sid, "forbidden string or secret")
            ok = False
        c = nov.clash(t, skip=sid)
        windows += max(0, len(t) - WIN + 1)
        if c is not None:
            print(sid, "shares a %d-character window with" % WIN, c)
            ok = False
    print("verified %d kinds; %d new samples; %d %d-character windows of new samples checked "
          "against %d samples in all" % (len(kinds), len(new), windows, WIN, len(nov.texts)))
    print("OK" if ok else "FAILED")
    return ok


def main(argv):
    if argv[:1] == ["--verify"]:
        kinds = argv[1:] or ALL_KINDS
        sys.exit(0 if verify(kinds) else 1)
    kinds = argv or ALL_KINDS
    for k in kinds:
        assert k in FAMILY, "unknown kind " + k
    ctx = Ctx(kinds)
    for kind in [k for k in ALL_KINDS if k in kinds]:
        if kind in B_KINDS:
            samples, rows = run_b(ctx, kind)
        elif kind in C_KINDS:
            samples, rows = build_c(ctx, kind)
        else:
            samples, rows = run_a(ctx, kind)
        if len(samples) < N_NEW:
            print("%s: only %d new samples" % (kind, len(samples)), file=sys.stderr)
        write_kind(ctx, kind, samples, rows)
    rej = collections.Counter()
    for (kind, why), n in ctx.rejected.items():
        rej[why] += n
    print("excerpts rejected by the new-sample rules:", dict(rej))


if __name__ == "__main__":
    main(sys.argv[1:])
