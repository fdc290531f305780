#!/usr/bin/env python3
"""gather_f.py - calibration-corpus samples of real public text, second batch.

Kinds written (40 samples each, one excerpt of one real file per sample):
  code-go     Go source from Debian golang-*-dev binary packages
              (/usr/share/gocode/src/...).
  code-java   Java source from the upstream (orig) tarballs of Debian source
              packages of Java libraries, plus the Android code of two npm
              packages (react-native-svg, react-native-fs).
  code-cpp    C++ headers from Debian -dev binary packages (/usr/include) and
              C++ sources (.cc/.cpp/.h) from a few Debian source packages.
  code-shell  sh/bash scripts (shebang sh/bash/dash, or bash-completion files)
              from Debian binary packages.
  sql         .sql files (schemas, migrations, extension scripts, tests)
              from Debian binary packages (PostgreSQL extensions, web apps,
              dbconfig-common data) and the regression-test SQL of the
              postgresql-15 Debian source package.
  xml         XML documents from Debian binary packages (GSettings schemas,
              help .page files, KDE docbook, mime info, fontconfig, polkit,
              D-Bus interface/config, gtksourceview language specs, menus,
              maven .pom files, xsl, a few svg), ant build.xml files from
              Java source tarballs, AndroidManifest.xml from npm packages.
  diff        debian/patches/* (unified diffs) from the debian.tar of Debian
              source packages.

Sources: Debian bookworm (binary packages through the system apt with
`apt-get download`; source packages through a private apt configuration under
WORK/apt with deb-src lines, `apt-get source -d`, or only the debian.tar via
`apt-get source --print-uris` + `apt-helper download-file`), and the npm
registry (`npm pack`). Versions are whatever the archive serves at fetch time
(npm versions are pinned); the version actually used is recorded in every
SOURCES.tsv origin.

Independence: no file (same package + same path) named in any
calibration/probe/*/SOURCES.tsv is used, and no sample shares a 200-character window
with another sample, with the other corpus kinds or with the probe set. Samples are written to OUT
(a staging directory) and copied into corpus/ from there.

Sizes: per kind 13 targets log-uniform in 200-1500 chars, 13 in 1500-6000,
14 in 6000-38000; a whole file is taken when one of about the wanted size
exists, else an excerpt cut at line boundaries (never above 40,000 chars).
Selection is deterministic: random.Random seeded with the kind name, inputs
walked in sorted order.

Usage:
  python3 gather_f.py --fetch [--work DIR]            # download + unpack
  python3 gather_f.py [--work DIR] [--out DIR] [KIND ...]   # write samples
WORK defaults to /tmp/gather_f_work, OUT to /tmp/newcorpus.
"""
import argparse
import collections
import glob
import gzip
import hashlib
import json
import math
import os
import random
import re
import subprocess
import sys

# ---------------------------------------------------------------- config

BAD = ["crates" + ".io", "py" + "pi", "python" + "hosted", "npm" + "js",
       "debian" + ".org", "registry" + ".yarnpkg"]
N = 40
MINC, MAXC = 200, 40000
HERE = os.path.dirname(os.path.abspath(__file__))
# The probe set (kept independent of the corpus) and the corpus, in this repository.
PROBE = os.path.normpath(os.path.join(HERE, '..', '..', 'calibration', 'probe'))
MAIN_CORPUS = os.path.normpath(os.path.join(HERE, '..'))

GO_BIN = """golang-github-spf13-viper-dev golang-github-spf13-afero-dev golang-github-pelletier-go-toml-dev
golang-github-magiconair-properties-dev golang-github-mattn-go-runewidth-dev golang-github-kr-pretty-dev
golang-github-davecgh-go-spew-dev golang-github-pmezard-go-difflib-dev golang-github-hashicorp-go-multierror-dev
golang-github-hashicorp-hcl-dev golang-github-prometheus-client-golang-dev golang-github-json-iterator-go-dev
golang-github-robfig-cron-dev golang-github-gofrs-uuid-dev golang-github-jessevdk-go-flags-dev
golang-github-tidwall-gjson-dev golang-github-golang-snappy-dev golang-github-russross-blackfriday-v2-dev
golang-github-yuin-goldmark-dev golang-github-microcosm-cc-bluemonday-dev golang-github-go-sql-driver-mysql-dev
golang-github-lib-pq-dev golang-github-cenkalti-backoff-dev golang-github-patrickmn-go-cache-dev
golang-github-google-btree-dev golang-github-hashicorp-go-version-dev golang-github-masterminds-semver-dev
golang-github-muesli-termenv-dev golang-github-gomodule-redigo-dev golang-github-emirpasic-gods-dev""".split()

CPP_BIN = """libutfcpp-dev libxtensor-dev libcppunit-dev libsigc++-2.0-dev libtbb-dev libabsl-dev cppzmq-dev
libwebsocketpp-dev libcpp-httplib-dev libpstreams-dev libsqlitecpp-dev libflatbuffers-dev libgflags-dev
libgoogle-glog-dev libarmadillo-dev libglibmm-2.4-dev libre2-dev libleveldb-dev libsnappy-dev
libdouble-conversion-dev libeasyloggingpp-dev libimath-dev libmuparser-dev libbox2d-dev libbullet-dev
libassimp-dev nlohmann-json3-dev libfmt-dev libspdlog-dev libcli11-dev""".split()
CPP_SRC = "leveldb re2 ninja-build muparser snappy cppunit".split()

SHELL_BIN = """live-build debootstrap pbuilder quilt fakeroot neofetch rkhunter lynis etckeeper tlp byobu bats
shunit2 keychain pass zram-tools cryptsetup-initramfs mdadm ifupdown resolvconf initscripts dracut-core dh-make
cowbuilder dkms xdg-utils bash-completion pm-utils laptop-mode-tools screenfetch wireguard-tools openvpn
acpid""".split()

SQL_BIN = """roundcube-core zabbix-server-pgsql kamailio-mysql-modules kamailio-postgres-modules ulogd2-pgsql
ulogd2-mysql gammu-smsd icinga2-ido-pgsql pdns-backend-sqlite3 bacula-director-mysql tt-rss opendmarc
postgresql-15-pgrouting-scripts postgresql-15-orafce postgresql-15-partman postgresql-15-repack
postgresql-15-periods postgresql-15-prefix postgresql-15-ip4r postgresql-15-pgtap postgresql-15-hypopg
postgresql-15-semver postgresql-15-unit postgresql-15-pgq3 postgresql-15-pgpool2 postgresql-15-powa
postgresql-15-pglogical rsyslog-mysql slony1-2-bin bucardo""".split()
SQL_SRC = ["postgresql-15"]

XML_BIN = """gsettings-desktop-schemas libgtksourceview-4-common udisks2 xdg-desktop-portal gnome-menus
fontconfig-config polkitd libcommons-io-java libgoogle-gson-java libjsoup-java libslf4j-java shared-mime-info
evince-common gnome-user-docs eog baobab gnome-clocks seahorse file-roller okular konsole mousepad thunar-data
xfce4-panel yelp-xsl docbook-xsl dbus-daemon avahi-daemon network-manager gnome-calculator gnome-disk-utility
gedit-common totem-common gnome-maps""".split()

JAVA_SRC = """args4j commons-io libcommons-cli-java libgoogle-gson-java libcommons-codec-java picocli jsch easymock
objenesis jzlib json-simple javaparser trove3 jflex javacc snakeyaml libxstream-java dom4j mockito
assertj-core guava-libraries caffeine libcommons-validator-java commons-beanutils jakarta-activation
univocity-parsers libcommons-net-java jackson-core jcommander jline3 jsoup junit4 libcommons-collections4-java
libcommons-lang3-java libhamcrest-java libslf4j-java libjsr305-java libcommons-text-java libcommons-csv-java
libcommons-exec-java libcommons-pool2-java joda-time jopt-simple xpp3 jaxen ant jdom2 testng
libcommons-logging-java libcommons-fileupload-java""".split()

NPM = ["react-native-svg@15.16.1", "react-native-fs@2.20.0"]

DIFF_SRC = """unzip netcat-openbsd pam grub2 vim openssl ncurses readline net-tools at zip libxml2 file diffutils
m4 gawk mawk util-linux e2fsprogs shadow sysvinit iputils tcpdump lftp inetutils nginx postfix htop lynx w3m mc
irssi zsh libpng1.6 tiff sox flac mpg123 man-db groff texinfo bzip2 xz-utils dash fetchmail procmail openldap
krb5 cyrus-sasl2 iptables iproute2 traceroute""".split()

# tar members to extract from big orig tarballs (others: everything)
ORIG_FILTER = {'postgresql-15': ['*/src/test/regress/sql/*', '*/contrib/*/sql/*']}

# ---------------------------------------------------------------- helpers


def sh(cmd, cwd=None, check=True):
    print('+', ' '.join(cmd), file=sys.stderr)
    return subprocess.run(cmd, cwd=cwd, check=check, stdout=subprocess.PIPE, text=True).stdout


def aptopt(work):
    a = os.path.join(work, 'apt')
    return ['-o', f'Dir::State::Lists={a}/lists', '-o', f'Dir::Etc::SourceList={a}/sources.list',
            '-o', 'Dir::Etc::SourceParts=/nonexistent', '-o', f'Dir::Cache={a}/cache']


def setup_apt(work):
    a = os.path.join(work, 'apt')
    for d in ('lists/partial', 'cache/archives/partial'):
        os.makedirs(os.path.join(a, d), exist_ok=True)
    with open(os.path.join(a, 'sources.list'), 'w') as f:
        for suite, base in (('bookworm', 'debian'), ('bookworm-security', 'debian-security'),
                            ('bookworm-updates', 'debian')):
            f.write(f'deb-src http://deb.{"debian"}.{"org"}/{base} {suite} main\n')
    if not glob.glob(os.path.join(a, 'lists', '*Sources*')):
        sh(['apt-get'] + aptopt(work) + ['update'])


def fetch_bin(work, pkgs):
    d = os.path.join(work, 'debs')
    os.makedirs(d, exist_ok=True)
    for p in sorted(set(pkgs)):
        if not glob.glob(os.path.join(d, f'{p}_*.deb')):
            sh(['apt-get', 'download', p], cwd=d, check=False)
    x = os.path.join(work, 'x')
    os.makedirs(x, exist_ok=True)
    for deb in sorted(glob.glob(os.path.join(d, '*.deb'))):
        t = os.path.join(x, os.path.basename(deb)[:-4])
        if not os.path.isdir(t):
            sh(['dpkg-deb', '-x', deb, t])


def src_version(dsc):
    b = os.path.basename(dsc)[:-4]
    return b.split('_', 1)


def src_versions(work, p):
    out = sh(['apt-cache'] + aptopt(work) + ['showsrc', '--only-source', p], check=False)
    vs = [m.group(1) for m in re.finditer(r'^Version: (\S+)', out, re.M)]
    # newest first (dpkg ordering)
    import functools

    def cmp(a, b):
        if a == b:
            return 0
        r = subprocess.run(['dpkg', '--compare-versions', a, 'gt', b])
        return -1 if r.returncode == 0 else 1
    return sorted(set(vs), key=functools.cmp_to_key(cmp))


def fetch_src(work, pkgs, orig=True):
    """download source packages; some files of the archive are not reachable here (404), so older
    versions listed in the Sources index are tried in turn."""
    s = os.path.join(work, 'srcs')
    os.makedirs(s, exist_ok=True)
    for p in sorted(set(pkgs)):
        def have():
            o = glob.glob(os.path.join(s, f'{p}_*.orig.tar.*'))
            d = glob.glob(os.path.join(s, f'{p}_*.debian.tar.*'))
            return bool(o) if orig else bool(d)
        if have():
            continue
        for ver in src_versions(work, p):
            if orig:
                sh(['apt-get'] + aptopt(work) + ['source', '-d', f'{p}={ver}'], cwd=s, check=False)
            else:
                out = sh(['apt-get'] + aptopt(work) + ['source', '--print-uris', '-qq', f'{p}={ver}'], check=False)
                for line in out.splitlines():
                    m = re.match(r"'([^']+)' (\S+) (\d+) (\S+)", line)
                    if m and '.debian.tar.' in m.group(2):
                        sh(['/usr/lib/apt/apt-helper', 'download-file', m.group(1),
                            os.path.join(s, m.group(2)), m.group(4)], check=False)
            if have():
                break
    # unpack: debian.tar into dx/<src>_<ver>/, orig into sx/<src>_<ver>/
    for dsc_or_tar in sorted(glob.glob(os.path.join(s, '*.dsc')) + glob.glob(os.path.join(s, '*.debian.tar.*'))):
        b = os.path.basename(dsc_or_tar)
        name = b[:-4] if b.endswith('.dsc') else b.split('.debian.tar.')[0]
        src, ver = name.split('_', 1)
        if src not in pkgs:
            continue
        tbs = glob.glob(os.path.join(s, f'{name}.debian.tar.*'))
        t = os.path.join(work, 'dx', name)
        if tbs and not os.path.isdir(t):
            os.makedirs(t)
            sh(['tar', '-xf', tbs[0], '-C', t])
        if orig:
            up = ver.rsplit('-', 1)[0]
            if ':' in up:
                up = up.split(':', 1)[1]
            for ot in sorted(glob.glob(os.path.join(s, f'{src}_{up}.orig.tar.*'))):
                if ot.endswith('.asc'):
                    continue
                o = os.path.join(work, 'sx', name)
                if os.path.isdir(o):
                    continue
                os.makedirs(o)
                cmd = ['tar', '-xf', ot, '-C', o]
                if src in ORIG_FILTER:
                    cmd += ['--wildcards'] + ORIG_FILTER[src]
                sh(cmd)


def fetch_npm(work):
    n = os.path.join(work, 'npm')
    os.makedirs(n, exist_ok=True)
    for spec in NPM:
        name, ver = spec.rsplit('@', 1)
        base = name.replace('@', '').replace('/', '-') + '-' + ver
        tgz = os.path.join(n, base + '.tgz')
        if not os.path.exists(tgz):
            sh(['npm', 'pack', '--silent', spec], cwd=n)
        t = os.path.join(n, base)
        if not os.path.isdir(t):
            os.makedirs(t)
            sh(['tar', '-xzf', tgz, '-C', t])


def fetch(work):
    os.makedirs(work, exist_ok=True)
    setup_apt(work)
    fetch_bin(work, GO_BIN + CPP_BIN + SHELL_BIN + SQL_BIN + XML_BIN)
    fetch_src(work, set(JAVA_SRC + CPP_SRC + SQL_SRC), orig=True)
    fetch_src(work, set(DIFF_SRC), orig=False)
    fetch_npm(work)


# ---------------------------------------------------------------- licences

def first_licence(text):
    m = re.search(r'^Files:[ \t]*\*[ \t]*\n(?:[^\n]+\n)*?License:[ \t]*([^\n]+)', text, re.M)
    if m:
        return m.group(1).strip()
    m = re.search(r'^License:[ \t]*([^\n]+)', text, re.M)
    if m:
        return m.group(1).strip()
    return None


_LIC = {}


def deb_licence(pkgdir):
    if pkgdir in _LIC:
        return _LIC[pkgdir]
    name = os.path.basename(pkgdir).split('_')[0]
    cands = sorted(glob.glob(os.path.join(pkgdir, 'usr/share/doc/*/copyright')))
    cands.sort(key=lambda p: 0 if f'/doc/{name}/' in p else 1)
    lic = None
    for c in cands:
        try:
            t = open(c, encoding='utf-8', errors='replace').read()
        except OSError:
            continue
        lic = first_licence(t)
        if lic:
            break
    _LIC[pkgdir] = lic or 'see package copyright file'
    return _LIC[pkgdir]


def src_licence(dxdir):
    c = os.path.join(dxdir, 'debian', 'copyright')
    if dxdir in _LIC:
        return _LIC[dxdir]
    lic = None
    if os.path.exists(c):
        lic = first_licence(open(c, encoding='utf-8', errors='replace').read())
    _LIC[dxdir] = lic or 'see package copyright file'
    return _LIC[dxdir]


# ---------------------------------------------------------------- candidates

Cand = collections.namedtuple('Cand', 'pkg label rel path lic gz')


def walk(base):
    for dp, dn, fn in os.walk(base):
        dn.sort()
        for f in sorted(fn):
            p = os.path.join(dp, f)
            if os.path.isfile(p) and not os.path.islink(p):
                yield p


def bin_dirs(work, pkgs):
    out = []
    for p in pkgs:
        ds = sorted(glob.glob(os.path.join(work, 'x', f'{p}_*')))
        if ds:
            out.append((p, ds[-1]))
        else:
            print(f'warning: binary package {p} missing', file=sys.stderr)
    return out


def bin_cands(work, pkgs, accept):
    res = []
    for p, d in bin_dirs(work, pkgs):
        parts = os.path.basename(d).split('_')
        ver = parts[1].replace('%3a', ':')
        label = f'Debian binary package {p} {ver}'
        for f in walk(d):
            rel = f[len(d):]
            if accept(rel, f):
                res.append(Cand(p, label, rel, f, deb_licence(d), rel.endswith('.gz')))
    return res


def src_dirs(work, pkgs, sub):
    out = []
    for p in pkgs:
        ds = sorted(glob.glob(os.path.join(work, sub, f'{p}_*')))
        if ds:
            out.append((p, ds[-1]))
        else:
            print(f'warning: source package {p} missing in {sub}', file=sys.stderr)
    return out


def src_cands(work, pkgs, accept, sub='sx'):
    res = []
    for p, d in src_dirs(work, pkgs, sub):
        name = os.path.basename(d)
        ver = name.split('_', 1)[1]
        label = f'Debian source package {p} {ver}'
        lic = src_licence(os.path.join(work, 'dx', name))
        for f in walk(d):
            rel = f[len(d) + 1:]
            if accept(rel, f):
                res.append(Cand(p, label, rel, f, lic, False))
    return res


def npm_cands(work, accept):
    res = []
    for d in sorted(glob.glob(os.path.join(work, 'npm', '*/'))):
        d = d.rstrip('/')
        pj = json.load(open(os.path.join(d, 'package', 'package.json')))
        label = f'npm package {pj["name"]} {pj["version"]}'
        lic = pj.get('license') or 'see package'
        for f in walk(d):
            rel = f[len(d) + 1:]
            if accept(rel, f):
                res.append(Cand(pj['name'], label, rel, f, lic, False))
    return res


def head(path, n=256):
    try:
        with open(path, 'rb') as fh:
            return fh.read(n)
    except OSError:
        return b''


GEN_RE = re.compile(r'code generated|do not edit|autogenerated|auto-generated|generated by|generated from|'
                    r'this file is generated|automatically generated|generated file', re.I)


def not_generated(t):
    return GEN_RE.search(t[:3000]) is None


CPP_EXT = ('.hpp', '.h', '.hh', '.hxx', '.cpp', '.cc', '.cxx', '.ipp', '.tcc', '.inl')
CPP_RE = re.compile(r'\bnamespace\b|\btemplate\s*<|\bclass\s+\w+|std::|\bpublic:|\bprivate:')


def kind_cands(kind, work):
    if kind == 'code-go':
        acc = lambda r, f: (r.endswith('.go') and '/gocode/src/' in r and '/vendor/' not in r)
        return bin_cands(work, GO_BIN, acc), lambda t: not_generated(t)
    if kind == 'code-java':
        acc = lambda r, f: r.endswith('.java')
        c = src_cands(work, JAVA_SRC, acc) + npm_cands(work, acc)
        return c, lambda t: not_generated(t)
    if kind == 'code-cpp':
        acc_b = lambda r, f: r.startswith('/usr/include/') and r.endswith(CPP_EXT)
        acc_s = lambda r, f: r.endswith(('.cc', '.cpp', '.cxx')) and '/third_party/' not in r
        c = bin_cands(work, CPP_BIN, acc_b) + src_cands(work, CPP_SRC, acc_s)
        return c, lambda t: not_generated(t) and CPP_RE.search(t) is not None

    if kind == 'code-shell':
        she = re.compile(rb'#!\s*(/usr)?/bin/(env\s+)?(ba|da)?sh\b')

        def acc(r, f):
            if r.startswith(('/usr/share/doc/', '/usr/share/man/', '/usr/share/locale/')):
                return False
            if '/bash-completion/completions/' in r:
                return True
            return she.match(head(f, 64)) is not None
        return bin_cands(work, SHELL_BIN, acc), lambda t: not_generated(t)
    if kind == 'sql':
        def acc_b(r, f):
            if r.endswith(('.sql', '.sql.gz')):
                return True
            return '/dbconfig-common/data/' in r and re.search(r'/(pgsql|mysql|sqlite3?)$', r) is not None
        acc_s = lambda r, f: r.endswith('.sql')
        c = bin_cands(work, SQL_BIN, acc_b) + src_cands(work, SQL_SRC, acc_s)
        return c, lambda t: re.search(r'\b(CREATE|INSERT|SELECT|ALTER|UPDATE|DROP)\b', t, re.I) is not None
    if kind == 'xml':
        exts = ('.xml', '.page', '.policy', '.ui', '.xsl', '.docbook', '.lang', '.menu', '.pom', '.svg',
                '.conf', '.service', '.its', '.loc', '.xbel', '.rng')

        def acc_b(r, f):
            if not r.endswith(exts):
                return False
            m = re.search(r'/usr/share/(help|gnome/help)/([^/]+)/', r)
            if m and m.group(2) != 'C':
                return False
            if r.startswith('/usr/share/doc/') and not (r.startswith('/usr/share/doc/HTML/en/')):
                return False
            if r.endswith(('.conf', '.service', '.svg')):
                return head(f, 512).lstrip().startswith((b'<?xml', b'<!DOCTYPE', b'<svg', b'<busconfig',
                                                         b'<fontconfig', b'<service-group'))
            return True
        acc_s = lambda r, f: os.path.basename(r) == 'build.xml'
        acc_n = lambda r, f: os.path.basename(r) == 'AndroidManifest.xml'
        c = bin_cands(work, XML_BIN, acc_b) + src_cands(work, JAVA_SRC, acc_s) + npm_cands(work, acc_n)
        return c, lambda t: t.lstrip().startswith('<') and '</' in t
    if kind == 'diff':
        acc = lambda r, f: r.startswith('debian/patches/') and os.path.basename(r) not in ('series', '00list')
        c = src_cands(work, DIFF_SRC, acc, sub='dx')
        return c, lambda t: '\n@@ ' in t and ('\n--- ' in t or t.startswith('--- '))
    raise KeyError(kind)


# ---------------------------------------------------------------- exclusions and overlap index

def probe_exclusions():
    ex = collections.defaultdict(set)
    for f in glob.glob(os.path.join(PROBE, '*', 'SOURCES.tsv')):
        for line in open(f, encoding='utf-8'):
            cols = line.rstrip('\n').split('\t')
            if len(cols) < 2 or cols[0] == 'id':
                continue
            origin = cols[1]
            parts = origin.split(', ')
            paths = [x.strip() for x in parts[1:] if x.strip().startswith('/')]
            if not paths:
                continue
            pkg = parts[0].split()[0]
            ex[pkg].add(paths[0].lstrip('/'))
    return ex


def excluded(ex, cand):
    rel = cand.rel.lstrip('/')
    for p in ex.get(cand.pkg, ()):
        if p == rel or p.endswith('/' + rel) or rel.endswith('/' + p):
            return True
    return False


W = 100  # window stride/length of the index; any shared 200-char window contains an aligned 100-window


class Overlap:
    def __init__(self):
        self.docs = []
        self.idx = {}

    def add(self, text):
        k = len(self.docs)
        self.docs.append(text)
        for i in range(0, len(text) - W + 1, W):
            self.idx.setdefault(hash(text[i:i + W]), []).append((k, i))

    def conflict(self, text, need=200):
        """first (start, end) span in text that shares >= need chars with an indexed doc, else None"""
        idx = self.idx
        n = len(text)
        i = 0
        while i <= n - W:
            hits = idx.get(hash(text[i:i + W]))
            if hits:
                for k, j in hits:
                    d = self.docs[k]
                    if d[j:j + W] != text[i:i + W]:
                        continue
                    a, b = i, j
                    while a > 0 and b > 0 and text[a - 1] == d[b - 1]:
                        a -= 1
                        b -= 1
                    e, f = i + W, j + W
                    while e < n and f < len(d) and text[e] == d[f]:
                        e += 1
                        f += 1
                    if e - a >= need:
                        return a, e
            i += 1
        return None


def load_overlap():
    ov = Overlap()
    files = sorted(glob.glob(os.path.join(MAIN_CORPUS, '*', '*.txt')) + glob.glob(os.path.join(PROBE, '*', '*.txt')))
    for f in files:
        # This set's own kinds, once copied into the corpus, are what a re-run rebuilds.
        if os.path.dirname(os.path.abspath(f)) in {os.path.join(MAIN_CORPUS, k) for k in KINDS}:
            continue
        try:
            ov.add(open(f, encoding='utf-8', errors='replace').read())
        except OSError:
            pass
    print(f'overlap index: {len(files)} files', file=sys.stderr)
    return ov


# ---------------------------------------------------------------- selection

def read_text(c):
    try:
        if c.gz:
            b = gzip.open(c.path).read()
        else:
            with open(c.path, 'rb') as fh:
                b = fh.read()
    except (OSError, EOFError):
        return None
    if b'\x00' in b or len(b) > 8_000_000:
        return None
    try:
        t = b.decode('utf-8')
    except UnicodeError:
        return None
    if t.startswith('\ufeff'):
        t = t[1:]
    return t


def plausible(t):
    if not t.strip():
        return False
    lines = t.splitlines()
    if max(len(l) for l in lines) > 1500:
        return False  # minified / data
    digits = sum(ch.isdigit() for ch in t)
    if digits > 0.3 * len(t):
        return False  # tables of numbers
    if re.search(r'[\x01-\x08\x0b\x0e-\x1f\x7f]', t):
        return False
    low = t[:4000].lower()
    if ('permission is hereby granted' in low or 'licensed under the apache license' in low or
            'gnu general public license' in low) and len(re.sub(r'(?s)/\*.*?\*/|//[^\n]*|#[^\n]*', '', t).strip()) < 200:
        return False  # licence-only file
    return True


def targets(rnd):
    t = []
    for lo, hi, n in ((200, 1500, 13), (1500, 6000, 13), (6000, 38000, 14)):
        a, b = math.log(lo * 1.15), math.log(hi)
        for i in range(n):
            t.append(int(math.exp(a + (i + rnd.random()) / n * (b - a))))
    rnd.shuffle(t)
    return t


def cut(lines, start, target):
    out, n, i = [], 0, start
    while i < len(lines) and n < target:
        if n + len(lines[i]) > MAXC:
            break
        out.append(lines[i])
        n += len(lines[i])
        i += 1
    return ''.join(out), start, i


def boundaries(lines):
    """line indexes that start a paragraph (after a blank line)"""
    return [i + 1 for i, l in enumerate(lines[:-1]) if not l.strip() and lines[i + 1].strip()]


def diff_starts(lines):
    return [i for i, l in enumerate(lines) if l.startswith(('diff ', 'Index: ', '--- '))
            and (l.startswith(('diff ', 'Index: ')) or (i + 1 < len(lines) and lines[i + 1].startswith('+++ ')))]


class Picker:
    def __init__(self, kind, cands, tfilter, ov, ex, rnd):
        self.kind, self.ov, self.rnd, self.tfilter = kind, ov, rnd, tfilter
        self.groups = collections.defaultdict(list)
        nex = 0
        for c in cands:
            if excluded(ex, c):
                nex += 1
                continue
            self.groups[c.pkg].append(c)
        print(f'{kind}: {len(cands)} candidate files in {len(self.groups)} packages ({nex} excluded by probe)',
              file=sys.stderr)
        self.order = sorted(self.groups)
        rnd.shuffle(self.order)
        for g in self.order:
            self.groups[g].sort(key=lambda c: c.rel)
            rnd.shuffle(self.groups[g])
        self.sizes = {}
        self.used_files = set()
        self.used_content = set()
        self.last_hash = None
        self.per_pkg = collections.Counter()
        self.per_ext = collections.Counter()
        self.cap = max(2, math.ceil(N / max(1, len(self.order))) + 1)
        self.samples = []
        self.ptr = 0

    def size(self, c):
        if c not in self.sizes:
            self.sizes[c] = os.path.getsize(c.path) if not c.gz else len(read_text(c) or '')
        return self.sizes[c]

    def ok_text(self, text):
        if not (MINC <= len(text) <= MAXC):
            return False
        low = text.lower()
        if any(b in low for b in BAD):
            return False
        if not self.tfilter(text):
            return False
        return self.ov.conflict(text) is None

    def try_file(self, c, target, whole):
        if self.kind.startswith('code-') and (self.size(c) > 400_000 or '/unicode/data/' in c.rel):
            return None  # huge source files here are data tables
        t = read_text(c)
        if t is None or not plausible(t) or not self.tfilter(t):
            return None
        h = hashlib.sha1(t.encode('utf-8')).hexdigest()
        if h in self.used_content:
            return None  # same content as an already used file (e.g. a copy under another path)
        self.last_hash = h
        lines = t.splitlines(keepends=True)
        if whole and len(t) <= MAXC:
            if self.ok_text(t):
                return t, 0, len(lines), len(lines)
        starts = []
        if self.kind == 'diff':
            starts = [0] + diff_starts(lines)[:3]
        else:
            bs = boundaries(lines)
            total = len(t)
            acc = [0]
            for l in lines:
                acc.append(acc[-1] + len(l))
            # starts leaving at least the target behind them
            good = [b for b in bs if total - acc[b] >= target * 0.9]
            if self.rnd.random() < 0.5:
                starts.append(0)
            starts += self.rnd.sample(good, min(4, len(good)))
            if 0 not in starts:
                starts.append(0)
        for s in starts:
            text, a, b = cut(lines, s, target)
            while text and not text.strip():
                break
            if len(text) < max(MINC, target * 0.6):
                continue
            if self.ok_text(text):
                return text, a, b, len(lines)
        return None

    def pick_one(self, target):
        n = len(self.order)
        for k in range(n):
            pkg = self.order[(self.ptr + k) % n]
            if self.per_pkg[pkg] >= self.cap:
                continue
            files = [c for c in self.groups[pkg] if c not in self.used_files]
            if self.kind == 'xml' and self.per_ext['.svg'] >= 3:
                files = [c for c in files if not c.rel.endswith('.svg')]
            wholes = [c for c in files if 0.75 * target <= self.size(c) <= 1.33 * target]
            bigger = [c for c in files if self.size(c) > 1.33 * target]
            tries = [(c, True) for c in wholes[:6]] + [(c, False) for c in bigger[:6]]
            for c, whole in tries:
                r = self.try_file(c, target, whole)
                if r:
                    text, a, b, nl = r
                    self.ptr = (self.ptr + k + 1) % n
                    self.per_pkg[pkg] += 1
                    self.used_files.add(c)
                    self.used_content.add(self.last_hash)
                    self.per_ext[os.path.splitext(c.rel)[1]] += 1
                    self.ov.add(text)
                    rel = c.rel + (' (gzip-decompressed)' if c.gz else '')
                    span = 'whole file' if (a == 0 and b == nl) else f'lines {a + 1}-{b} of {nl}'
                    self.samples.append((text, f'{c.label}: {rel}, {span}', c.lic, pkg))
                    return True
        return False

    def run(self):
        for tg in targets(self.rnd):
            if not self.pick_one(tg):
                # fall back: a somewhat different size
                for f in (0.7, 1.4, 0.5, 2.0, 0.3):
                    t2 = int(min(38000, max(250, tg * f)))
                    if self.pick_one(t2):
                        break
                else:
                    print(f'{self.kind}: no sample for target {tg}', file=sys.stderr)
        return self.samples


def build(work, out, kinds):
    ex = probe_exclusions()
    ov = load_overlap()
    for kind in kinds:
        rnd = random.Random('gather_f:' + kind)
        cands, tfilter = kind_cands(kind, work)
        samples = Picker(kind, cands, tfilter, ov, ex, rnd).run()
        d = os.path.join(out, kind)
        os.makedirs(d, exist_ok=True)
        for f in glob.glob(os.path.join(d, f'{kind}-*.txt')) + glob.glob(os.path.join(d, 'SOURCES.tsv')):
            os.remove(f)
        rows = ['id\torigin\tlicence']
        for i, (text, origin, lic, pkg) in enumerate(samples, 1):
            sid = f'{kind}-{i:03d}'
            with open(os.path.join(d, sid + '.txt'), 'w', encoding='utf-8', newline='') as fh:
                fh.write(text)
            rows.append(f'{sid}\t{origin}\t{lic}')
        with open(os.path.join(d, 'SOURCES.tsv'), 'w', encoding='utf-8') as fh:
            fh.write('\n'.join(rows) + '\n')
        sizes = [len(s[0]) for s in samples]
        print(f'{kind}: {len(samples)} samples, {len(set(s[3] for s in samples))} packages, {sum(sizes)} chars; '
              f'<1500: {sum(x < 1500 for x in sizes)}, 1500-6000: {sum(1500 <= x < 6000 for x in sizes)}, '
              f'>=6000: {sum(x >= 6000 for x in sizes)}')


KINDS = ['code-go', 'code-java', 'code-cpp', 'code-shell', 'sql', 'xml', 'diff']

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--fetch', action='store_true')
    ap.add_argument('--work', default='/tmp/gather_f_work')
    ap.add_argument('--out', default='/tmp/newcorpus')
    ap.add_argument('kinds', nargs='*')
    a = ap.parse_args()
    if a.fetch:
        fetch(a.work)
    else:
        build(a.work, a.out, a.kinds or KINDS)
