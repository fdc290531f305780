import os, re, struct, random, glob, subprocess, collections

ROOT = '/tmp/probe'
BAD = ["crates" + ".io", "py" + "pi", "python" + "hosted", "npm" + "js", "debian" + ".org", "registry" + ".yarnpkg"]
MINC, MAXC = 300, 20000
TARGETS = [450, 900, 1400, 2000, 2800, 3600, 4500, 5500, 7000, 9000, 12000, 16000]


def targets(kind):
    t = TARGETS[:]
    random.Random(kind).shuffle(t)
    return t


class Kind:
    def __init__(self, kind):
        self.kind = kind
        self.dir = os.path.join(ROOT, kind)
        os.makedirs(self.dir, exist_ok=True)
        for f in glob.glob(self.dir + '/*'):
            os.remove(f)
        self.n = 0
        self.per_file = collections.Counter()
        self.pkgs = set()
        self.tg = targets(kind)

    def target(self):
        return self.tg[self.n % len(self.tg)]

    def ok(self, text):
        if not (MINC <= len(text) <= MAXC):
            return False
        low = text.lower()
        if any(b in low for b in BAD):
            return False
        try:
            text.encode('utf-8')
        except UnicodeError:
            return False
        if '\x00' in text:
            return False
        return True

    def add(self, text, pkg, path, what, licence, fkey=None):
        fkey = fkey or (pkg, path)
        if self.n >= 12 or self.per_file[fkey] >= 2 or not self.ok(text):
            return False
        self.n += 1
        sid = f'{self.kind}-{self.n:02d}'
        with open(os.path.join(self.dir, sid + '.txt'), 'w', encoding='utf-8') as f:
            f.write(text)
        with open(os.path.join(self.dir, 'SOURCES.tsv'), 'a', encoding='utf-8') as f:
            f.write(f'{sid}\t{pkg}, {path}, {what}\t{licence or "unknown"}\n')
        self.per_file[fkey] += 1
        self.pkgs.add(pkg)
        return True

    def full(self):
        return self.n >= 12


def cut(lines, start, target, maxc=MAXC):
    """lines keep their '\n'. Return (text, start, end_exclusive) >= target chars if possible."""
    out = []
    n = 0
    i = start
    while i < len(lines) and n < target:
        if n + len(lines[i]) > maxc:
            break
        out.append(lines[i])
        n += len(lines[i])
        i += 1
    text = ''.join(out)
    return text, start, i


def pkgname(dirname):
    """x/<name>_<ver>_<arch> -> 'name ver'"""
    b = os.path.basename(dirname.rstrip('/'))
    parts = b.split('_')
    ver = parts[1].replace('%3a', ':') if len(parts) > 1 else ''
    return f'{parts[0]} {ver}'.strip()


def deb_licence(pkgdir):
    name = os.path.basename(pkgdir).split('_')[0]
    cands = glob.glob(os.path.join(pkgdir, 'usr/share/doc/*/copyright'))
    cands.sort(key=lambda p: 0 if f'/doc/{name}/' in p else 1)
    for c in cands:
        try:
            t = open(c, encoding='utf-8', errors='replace').read()
        except OSError:
            continue
        m = re.search(r'^Files:[ \t]*\*[ \t]*\n(?:[^\n]+\n)*?License:[ \t]*([^\n]+)', t, re.M)
        if m:
            return m.group(1).strip()
        m = re.search(r'^License:[ \t]*([^\n]+)', t, re.M)
        if m:
            return m.group(1).strip()
        for pat in ['GPL-3', 'GPL-2', 'LGPL', 'GNU General Public License', 'BSD', 'MIT', 'Apache', 'GFDL', 'GNU Free Documentation']:
            if pat in t:
                return f'see copyright ({pat} mentioned)'
    return None


def parse_mo(path):
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    e = '<' if magic == 0x950412de else '>'
    _, n, oo, to = struct.unpack(e + '4I', data[4:20])
    entries = []
    for i in range(n):
        ol, oof = struct.unpack(e + '2I', data[oo + 8 * i: oo + 8 * i + 8])
        tl, tof = struct.unpack(e + '2I', data[to + 8 * i: to + 8 * i + 8])
        entries.append((data[oof:oof + ol], data[tof:tof + tl]))
    charset = 'utf-8'
    for k, v in entries:
        if k == b'':
            m = re.search(rb'charset=([-\w]+)', v)
            if m:
                charset = m.group(1).decode()
    res = []
    for k, v in entries:
        if k == b'':
            continue
        try:
            ks = k.decode(charset)
            vs = v.decode(charset)
        except (UnicodeError, LookupError):
            continue
        ctx_id = ks.split('\x04')[-1].split('\x00')[0]
        for s in vs.split('\x00'):
            if s and s != ctx_id:
                res.append(s)
    return res


EN_STOP = re.compile(r'\b(the|and|of|to|is|with|for|this|that|are|be|by|if|when|which|from|or)\b')


def english_ratio(text):
    words = re.findall(r'\w+', text)
    if not words:
        return 1.0
    return len(EN_STOP.findall(text)) / len(words)


def best_window(lines, target, score, step=None, maxc=MAXC):
    """choose the start index minimising score(text)."""
    best = None
    step = step or max(1, len(lines) // 60)
    for s in range(0, len(lines), step):
        text, a, b = cut(lines, s, target, maxc)
        if len(text) < min(target, MINC):
            continue
        sc = score(text)
        if best is None or sc < best[0]:
            best = (sc, text, a, b)
    return best
