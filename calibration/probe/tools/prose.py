import sys, os, glob, re, random, subprocess, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

LANGS = {
    'vi': ['vi'], 'pl': ['pl'], 'el': ['el'], 'he': ['he'], 'th': ['th'], 'tr': ['tr'], 'fa': ['fa'],
    'uk': ['uk'], 'it': ['it'], 'pt': ['pt_BR', 'pt'], 'cs': ['cs'], 'id': ['id'],
}
SCRIPT = {
    'el': r'[\u0370-\u03FF\u1F00-\u1FFF]', 'he': r'[\u0590-\u05FF]', 'th': r'[\u0E00-\u0E7F]',
    'fa': r'[\u0600-\u06FF\uFB50-\uFDFF\uFE70-\uFEFF]', 'uk': r'[\u0400-\u04FF]',
}
MAN_MAX = 5


def scorer(lang):
    sp = re.compile(SCRIPT[lang]) if lang in SCRIPT else None

    def score(text):
        s = english_ratio(text)
        if sp:
            letters = re.findall(r'[^\W\d_]', text)
            if letters:
                s += 1 - len(sp.findall(text)) / len(letters)
            else:
                s += 1
        return s
    return score


def render_man(path):
    env = dict(os.environ, MANWIDTH='80', LANG='C.UTF-8', LC_ALL='C.UTF-8')
    try:
        p = subprocess.run(f"man -l '{path}' 2>/dev/null | col -bx", shell=True, env=env,
                           capture_output=True, timeout=30)
        return p.stdout.decode('utf-8')
    except Exception:
        return None


def pkg_of(path):
    parts = path.split('/')
    i = parts.index('x')
    return '/'.join(parts[:i + 2]), '/' + '/'.join(parts[i + 2:])


def run(lang):
    K = Kind('prose-' + lang)
    score = scorer(lang)
    rnd = random.Random('man' + lang)
    # ---- man pages
    mans = []
    for d in LANGS[lang]:
        mans += glob.glob(f'{ROOT}/x/*/usr/share/man/{d}/man*/*')
    bypkg = collections.defaultdict(list)
    for m in mans:
        if os.path.islink(m):
            continue
        bypkg[pkg_of(m)[0]].append(m)
    # order: other packages first (one each), then the manpages-xx package(s)
    order = []
    others = [p for p in bypkg if not os.path.basename(p).startswith('manpages-')]
    mp = [p for p in bypkg if os.path.basename(p).startswith('manpages-')]
    rnd.shuffle(others)
    for p in others:
        order.append((p, bypkg[p]))
    for p in mp:
        order.append((p, bypkg[p]))
    man_added = 0
    for p, files in order:
        if man_added >= MAN_MAX:
            break
        lim = 2 if os.path.basename(p).startswith('manpages-') else 1
        # more from the dedicated manpage package if few other packages
        if os.path.basename(p).startswith('manpages-'):
            lim = MAN_MAX - man_added
        files.sort(key=lambda f: -os.path.getsize(f))
        files = files[:max(3, int(len(files) * 0.6))]
        rnd.shuffle(files)
        cands = []
        for f in files[:40]:
            t = render_man(f)
            if not t or len(t) < 800:
                continue
            cands.append((score(t), f, t))
        cands.sort(key=lambda c: c[0])
        got = 0
        for sc, f, t in cands:
            if got >= lim or man_added >= MAN_MAX:
                break
            lines = t.splitlines(keepends=True)
            bw = best_window(lines, K.target(), score)
            if not bw or bw[0] > (0.2 if lang in SCRIPT else 0.12):
                continue
            _, text, a, b = bw
            # strip leading blank lines (still line-cut)
            lic = deb_licence(p)
            pk, rel = pkg_of(f)
            if K.add(text, pkgname(pk), rel,
                     f'man page rendered with MANWIDTH=80 man -l | col -bx, output lines {a+1}-{b}', lic):
                got += 1
                man_added += 1
    # ---- gettext catalogs
    mos = []
    for d in LANGS[lang]:
        mos += glob.glob(f'{ROOT}/x/*/usr/share/locale/{d}/LC_MESSAGES/*.mo')
    bypkg = collections.defaultdict(list)
    for m in mos:
        bypkg[pkg_of(m)[0]].append(m)
    ranked = []
    for p, files in bypkg.items():
        best = None
        for f in files:
            try:
                strs = parse_mo(f)
            except Exception:
                continue
            longs = [s for s in strs if len(s) >= 30]
            sc = sum(len(s) for s in longs if len(s) >= 60)
            if best is None or sc > best[0]:
                best = (sc, f, longs)
        if best and best[0] > 0:
            ranked.append((p,) + best)
    ranked.sort(key=lambda r: -r[1])
    used_pkgs = set(K.pkgs)
    for p, sc, f, longs in ranked:
        if K.full():
            break
        if pkgname(p) in used_pkgs:
            continue
        text_all = '\n'.join(longs) + '\n'
        lines = text_all.splitlines(keepends=True)
        bw = best_window(lines, K.target(), score)
        if not bw or bw[0] > 0.15:
            continue
        _, text, a, b = bw
        pk, rel = pkg_of(f)
        K.add(text, pkgname(pk), rel,
              f'gettext catalog decoded; msgstr texts of >=30 chars in catalog order, one per line (embedded newlines kept), lines {a+1}-{b} of that listing',
              deb_licence(p))
        used_pkgs.add(pkgname(p))
    # second pass: allow a second catalog from an already used package
    if not K.full():
        for p, sc, f, longs in ranked:
            if K.full():
                break
            for f2 in bypkg[p]:
                if K.full():
                    break
                pk, rel = pkg_of(f2)
                if K.per_file[(pkgname(pk), rel)] >= 1:
                    continue
                strs = [s for s in parse_mo(f2) if len(s) >= 30]
                lines = ('\n'.join(strs) + '\n').splitlines(keepends=True)
                if sum(map(len, lines)) < MINC:
                    continue
                bw = best_window(lines, K.target(), score)
                if not bw or bw[0] > 0.15:
                    continue
                _, text, a, b = bw
                K.add(text, pkgname(pk), rel,
                      f'gettext catalog decoded; msgstr texts of >=30 chars in catalog order, one per line (embedded newlines kept), lines {a+1}-{b} of that listing',
                      deb_licence(p))
    print(f'prose-{lang}: {K.n} samples, {len(K.pkgs)} packages, man={man_added}')


if __name__ == '__main__':
    for lang in (sys.argv[1:] or LANGS):
        run(lang)
