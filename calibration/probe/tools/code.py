import sys, os, glob, re, random, json, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

R = ROOT


def read(path):
    try:
        with open(path, 'rb') as f:
            b = f.read()
        if b'\x00' in b:
            return None
        return b.decode('utf-8')
    except (OSError, UnicodeError):
        return None


def walk(base):
    for dp, dn, fn in os.walk(base):
        for f in fn:
            p = os.path.join(dp, f)
            if os.path.isfile(p) and not os.path.islink(p):
                yield p


def debpkg(path):
    """return (pkgdir, label, relpath) for x/ or y/ paths"""
    parts = path.split('/')
    base = R.rstrip('/').split('/')
    assert parts[:len(base)] == base and parts[len(base)] in ('x', 'y'), path
    i = len(base)
    d = '/'.join(parts[:i + 2])
    return d, pkgname(d) + ' (Debian bookworm binary package)', '/' + '/'.join(parts[i + 2:])


LIC_CACHE = {}


def lic_deb(d):
    if d not in LIC_CACHE:
        LIC_CACHE[d] = deb_licence(d)
    return LIC_CACHE[d]


def src_lic(srcdir_debian):
    c = os.path.join(srcdir_debian, 'debian', 'copyright')
    if not os.path.exists(c):
        return None
    t = open(c, encoding='utf-8', errors='replace').read()
    m = re.search(r'^Files:[ \t]*\*[ \t]*\n(?:[^\n]+\n)*?License:[ \t]*([^\n]+)', t, re.M)
    if m:
        return m.group(1).strip()
    m = re.search(r'^License:[ \t]*([^\n]+)', t, re.M)
    return m.group(1).strip() if m else None


def pick(kind, groups, start_mode='mixed', min_file=600, seed=None):
    """groups: dict label -> list of (path, relpath, licence, extra). round robin."""
    K = Kind(kind)
    rnd = random.Random(seed or kind)
    labels = sorted(groups)
    rnd.shuffle(labels)
    for g in groups.values():
        rnd.shuffle(g)
    rounds = 0
    while not K.full() and rounds < 3:
        progressed = False
        for lab in labels:
            if K.full():
                break
            files = groups[lab]
            tgt = K.target()
            # prefer a file big enough for the wanted length
            big = [k for k, it in enumerate(files) if os.path.getsize(it[0]) >= tgt]
            if big:
                k = big[-1]
                files.append(files.pop(k))
            while files:
                path, rel, lic, tfilter = files.pop()
                t = read(path)
                if t is None or len(t) < max(min_file, MINC) or any(b in t.lower() for b in BAD):
                    continue
                if tfilter and not tfilter(t):
                    continue
                lines = t.splitlines(keepends=True)
                tgt = K.target()
                mode = start_mode
                if mode == 'mixed':
                    mode = 'zero' if (K.n % 2 == 0 and tgt >= 2000) else 'random'
                start = 0
                if mode == 'random' and len(t) > tgt * 1.5:
                    # a start line so that enough text remains
                    acc = 0
                    limit = 0
                    total = len(t)
                    for i, l in enumerate(lines):
                        if total - acc < tgt:
                            break
                        limit = i
                        acc += len(l)
                    start = rnd.randint(0, limit)
                    # move back to a blank line / top-level boundary if close
                    for j in range(start, max(-1, start - 15), -1):
                        if lines[j].strip() == '':
                            start = j + 1
                            break
                text, a, b = cut(lines, start, tgt)
                if len(text) < MINC:
                    continue
                what = f'lines {a+1}-{b} of {len(lines)}'
                if K.add(text, lab, rel, what, lic):
                    progressed = True
                    break
        rounds += 1
        if not progressed:
            break
    print(f'{kind}: {K.n} samples from {len(K.pkgs)} packages, {sum(len(open(os.path.join(K.dir, f)).read()) for f in os.listdir(K.dir) if f.endswith(".txt"))} chars')
    return K


def deb_groups(pattern_dirs, accept, tfilter=None):
    groups = collections.defaultdict(list)
    for d in pattern_dirs:
        for p in walk(d):
            if not accept(p):
                continue
            pd, lab, rel = debpkg(p)
            groups[lab].append((p, rel, lic_deb(pd), tfilter))
    return groups


def go():
    dirs = glob.glob(f'{R}/y/golang-*')
    g = deb_groups(dirs, lambda p: p.endswith('.go'))
    pick('code-go', g, min_file=1500)


def java():
    groups = collections.defaultdict(list)
    for d in glob.glob(f'{R}/srcs/jx/*'):
        b = os.path.basename(d)
        src, ver = b.rsplit('_', 1)
        dd = glob.glob(f'{R}/srcs/dx/{src}_*')
        lic = src_lic(dd[0]) if dd else None
        lab = f'{src} {ver} (Debian bookworm source package, upstream orig tarball)'
        for p in walk(d):
            if p.endswith('.java'):
                groups[lab].append((p, p[len(d):], lic, None))
    for d in glob.glob(f'{R}/npm/*/'):
        pj = json.load(open(os.path.join(d, 'package', 'package.json')))
        lab = f'{pj["name"]} {pj["version"]} (npm package)'
        for p in walk(d):
            if p.endswith('.java'):
                groups[lab].append((p, p[len(d.rstrip('/')):], pj.get('license'), None))
    pick('code-java', groups, min_file=1200)


CPP_PKGS = ['libeigen3-dev', 'libglm-dev', 'nlohmann-json3-dev', 'libfmt-dev', 'libgtest-dev', 'catch2', 'libspdlog-dev',
            'libcereal-dev', 'rapidjson-dev', 'libpugixml-dev', 'libyaml-cpp-dev', 'libcli11-dev', 'libmsgsl-dev',
            'libcxxopts-dev', 'libtinyxml2-dev', 'libjsoncpp-dev', 'libmsgpack-cxx-dev', 'libbenchmark-dev', 'libgmock-dev',
            'libtclap-dev', 'libxsimd-dev', 'librange-v3-dev', 'libasio-dev', 'pybind11-dev']


def cpp():
    dirs = [d for d in glob.glob(f'{R}/y/*') if os.path.basename(d).split('_')[0] in CPP_PKGS]
    exts = ('.hpp', '.cpp', '.cc', '.h', '.hxx', '.ipp', '.inl', '.tcc', '.hh', '.cxx')
    f = lambda t: bool(re.search(r'\bnamespace\b|\btemplate\s*<|\bclass\s+\w+|std::', t))
    g = deb_groups(dirs, lambda p: p.endswith(exts) or re.search(r'/include/[^.]+$', p) is not None, f)
    pick('code-cpp', g, min_file=1500)


def shell():
    dirs = glob.glob(f'{R}/y/*') + glob.glob(f'{R}/x/*')

    def accept(p):
        if '/usr/share/doc/' in p or '/usr/share/man/' in p or '/locale/' in p:
            return False
        if '/bash-completion/completions/' in p:
            return True
        try:
            with open(p, 'rb') as fh:
                h = fh.read(64)
        except OSError:
            return False
        return re.match(rb'#!\s*(/usr)?/bin/(env\s+)?(ba|da|z|k)?sh\b', h) is not None
    g = deb_groups(dirs, accept)
    pick('code-shell', g, min_file=1000)


def sql():
    dirs = glob.glob(f'{R}/y/*')
    f = lambda t: re.search(r'\b(CREATE|INSERT|SELECT|ALTER|UPDATE|DROP)\b', t, re.I) is not None
    g = deb_groups(dirs, lambda p: p.endswith('.sql') or ('/dbconfig-common/data/' in p and re.search(r'/(pgsql|mysql|sqlite3?)$', p) is not None), f)
    pick('sql', g, min_file=500)


def xml():
    dirs = glob.glob(f'{R}/y/*') + glob.glob(f'{R}/x/*')
    exts = ('.xml', '.page', '.policy', '.ui', '.xsl', '.metainfo.xml', '.appdata.xml', '.conf', '.xbel', '.gschema.xml', '.rng', '.docbook')

    def accept(p):
        if not p.endswith(exts) or '/usr/share/doc/' in p:
            return False
        m = re.search(r'/usr/share/(help|gnome/help)/([^/]+)/', p)
        if m and m.group(2) != 'C':
            return False
        if p.endswith('.conf'):
            try:
                with open(p, 'rb') as fh:
                    return fh.read(5) == b'<?xml'
            except OSError:
                return False
        return True
    f = lambda t: t.lstrip().startswith('<') and '</' in t
    g = deb_groups(dirs, accept, f)
    pick('xml', g, min_file=800)


def diff():
    groups = collections.defaultdict(list)
    for d in glob.glob(f'{R}/srcs/dx/*'):
        src, ver = os.path.basename(d).rsplit('_', 1)
        lab = f'{src} {ver} (Debian bookworm source package, debian.tar)'
        lic = src_lic(d)
        for p in walk(os.path.join(d, 'debian', 'patches')):
            if os.path.basename(p) == 'series':
                continue
            groups[lab].append((p, p[len(d):], lic,
                                lambda t: '\n@@ ' in t and ('\n--- ' in t or t.startswith('--- '))))
    pick('diff', groups, start_mode='zero', min_file=500)


if __name__ == '__main__':
    fns = dict(go=go, java=java, cpp=cpp, shell=shell, sql=sql, xml=xml, diff=diff)
    for a in (sys.argv[1:] or fns):
        fns[a]()
