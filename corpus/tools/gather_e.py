#!/usr/bin/env python3
"""Calibration corpus, set E: real public prose in twelve more languages.

Kinds (40 samples each, written to OUT/<kind>/<kind>-NNN.txt + SOURCES.tsv):
  prose-vi prose-pl prose-el prose-he prose-th prose-tr prose-fa prose-uk
  prose-it prose-pt prose-cs prose-id

Where the text comes from (nothing is generated, translated or edited; every
sample is a contiguous run of whole lines of ONE source file's text):
  * Debian bookworm binary packages (apt-get download, dpkg-deb -x):
      - gettext catalogs (*.mo) under usr/share/locale/<lang>/LC_MESSAGES,
        games' own locale trees (wesnoth, freeciv) and LibreOffice's
        resource/<lang>/LC_MESSAGES: the msgstr texts, decoded with a
        struct-based .mo reader, in catalog order, one per line (plural forms
        each on their own line, embedded newlines kept), translations shorter
        than 20 characters left out;
      - translated man pages (manpages-xx, and man/<lang> trees of any other
        package), rendered with `MANWIDTH=80 man -l FILE | col -bx`;
      - GNOME Mallard / DocBook help (usr/share/help/<lang>/...): the text of
        the block elements (title, p, item, td, ...), one block per line,
        markup dropped;
      - HTML documentation (debian-reference-xx, installation-guide, maint-
        guide, debian-faq, developers-reference, gimp-help-xx, libreoffice-
        help-xx, ...): text of the HTML, one block per line;
      - KDE DocBook handbooks (usr/share/doc/HTML/<lang>/...index.docbook);
      - fortune files (fortunes-pl, fortunes-it, fortunes-cs, fortunes-br).
  * the Python package index (pip download --no-deps): Django, Sphinx, Trac and JupyterLab
    language packs: msgstr texts of their .mo catalogs as above.
Files used by the independent probe set (calibration/probe/*/SOURCES.tsv:
same package and same path) are never used.

Selection: per kind, random.Random("gather-e:<kind>"); 40 target sizes
log-uniform in three bands (13 in 220-1500, 13 in 1500-6000, 14 in
6000-38000 characters), filled largest first; the slots alternate between
preferring running-text documents (man, help, HTML, DocBook, fortunes) and
gettext catalogs; packages are visited round-robin in a shuffled order,
each package at most 2 samples (relaxed to 3, 4, 6, 10 only when nothing
else fits), each file at most 2 samples; when no document is long enough
the target shrinks by 20 % steps inside its band.  An excerpt starts at a
random non-blank line and takes whole lines until the target is reached.
It must be valid UTF-8, 200..40000 chars, contain none of the FORBIDDEN
strings, no control characters and no e-mail address, pass the language
check of the kind on the whole text and on every ~800-character stretch
(script share for el/he/th/fa/uk, stop words against English for the
Latin-script languages), and share no 200-character window with any other
sample (this set, the other corpus kinds and the probe set).  The samples
are written to OUT (a staging directory) and copied into corpus/ from there.
The result is deterministic: a re-run gives byte-identical files.

Usage:
  python3 gather_e.py --fetch        # download + unpack into WORK
  python3 gather_e.py [kind ...]     # build samples (default: all kinds)
  python3 gather_e.py --verify       # re-check the written set
"""
import collections
import glob
import gzip
import hashlib
import html
import html.parser
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

OUT = "/tmp/newcorpus"
WORK = OUT + "/work"
DEBS = WORK + "/debs"
X = WORK + "/x"
PIPD = WORK + "/pip"
PX = WORK + "/px"
HERE = os.path.dirname(os.path.abspath(__file__))
# The probe set (kept independent of the corpus) and the corpus, in this repository.
PROBE = os.path.normpath(os.path.join(HERE, "..", "..", "calibration", "probe"))
MAIN_CORPUS = os.path.normpath(os.path.join(HERE, ".."))

FORBIDDEN = ["crates" + ".io", "py" + "pi", "python" + "hosted", "npm" + "js",
             "debian" + ".org", "registry" + ".yarnpkg"]

LANGS = ["vi", "pl", "el", "he", "th", "tr", "fa", "uk", "it", "pt", "cs", "id"]
# locale directory names per kind
LOCDIRS = {
    "vi": ["vi"], "pl": ["pl"], "el": ["el"], "he": ["he", "iw"], "th": ["th"],
    "tr": ["tr"], "fa": ["fa", "fa_IR"], "uk": ["uk"], "it": ["it"],
    "pt": ["pt_BR", "pt", "pt-BR", "pt_PT"], "cs": ["cs"], "id": ["id"],
}

# The probe's packages (downloaded again here, so this script stands alone)
PROBE_DEBS = """apt aptitude-common audacity-data baobab binutils-common brasero-common celluloid
claws-mail-i18n coreutils cups-common debconf-i18n deluge-common diffutils dolphin dpkg
e2fsprogs-l10n eog evince-common evolution-common evolution-data-server-common file-roller
filezilla-common findutils gcc-12-locales gdb geany-common gedit-common gettext gimp-data
gnome-calculator gnome-clocks gnome-control-center-data gnome-disk-utility gnome-maps
gnome-online-accounts gnome-shell-common gnome-software-common gnome-system-monitor
gnome-terminal-data gnome-tweaks gnome-weather gnucash-common gnupg-l10n gparted grep gucharmap
gwenview hexchat-common iso-codes keepassxc konsole less libc-l10n libglib2.0-data
libgtk-3-common libgweather-4-common libkf5coreaddons-data make manpages-cs manpages-el
manpages-id manpages-it manpages-pl manpages-pt-br manpages-tr manpages-uk manpages-vi mc-data
mousepad mutter-common nano nautilus-data network-manager okular parole pidgin-data
poedit-common rhythmbox-data ristretto seahorse sed shotwell-common simple-scan synaptic tar
thunar-data totem-common transmission-common util-linux-locales vim-common vlc-l10n wget
xfce4-notifyd xfce4-panel xfce4-session xfce4-settings xfce4-terminal xfdesktop4-data""".split()

MORE_DEBS = """debian-reference-id debian-reference-it debian-reference-pt debian-reference-pt-br
debian-faq-it debian-faq-pt maint-guide-it maint-guide-vi developers-reference-it
installation-guide-amd64 debian-handbook debian-history harden-doc gnome-user-docs
fortunes-pl fortunes-it fortunes-cs fortunes-br manpages-pl-dev manpages-it-dev manpages-cs-dev
manpages-uk-dev manpages-pt-br-dev
bash cpio parted sharutils texinfo gawk bison m4 recode enscript kbd procps psmisc passwd login
sudo man-db tasksel-data xz-utils acl attr git libsvn1 mercurial-common
wesnoth-1.16-data freeciv-data neverball-data
gnumeric-common aisleriot gnome-mines gnome-chess quadrapassel gnome-sudoku four-in-a-row hitori
iagno lightsoff swell-foop tali gnome-klotski gnome-nibbles gnome-robots gnome-taquin
gnome-tetravex five-or-more gnome-mahjongg
cheese-common gnome-music gnome-contacts gnome-calendar gnome-characters gnome-logs
gnome-font-viewer gnome-screenshot gnome-sound-recorder gnome-text-editor gnome-console
gnome-boxes epiphany-browser-data geary gthumb-data polari gnome-builder gnome-photos
sound-juicer orca gnome-initial-setup gdm3 gnome-keyring gnome-session-common
gnome-settings-daemon-common gnome-desktop3-data gvfs-common gnome-bluetooth-3-common
network-manager-gnome yelp zenity-common dconf-editor devhelp-common gitg meld glade ghex
xfce4-power-manager-data xfce4-screenshooter xfce4-taskmanager xfburn catfish xfce4-appfinder
xfwm4 xfce4-dict thunar-archive-plugin xfce4-weather-plugin xfce4-whiskermenu-plugin
xfce4-pulseaudio-plugin xfce4-clipman libxfce4ui-common libxfce4util-common libexo-common
tumbler-common lightdm-gtk-greeter
mate-desktop-common caja-common pluma-common engrampa-common atril-common
mate-control-center-common mate-panel-common eom-common mate-terminal-common
mate-power-manager-common mate-utils-common cinnamon-l10n lxpanel-data libfm-data lxterminal
kate ark kcalc kdenlive-data k3b-i18n kdeconnect plasma-workspace plasma-desktop-data
systemsettings kwin-common ktexteditor-data kmail korganizer akregator digikam-data elisa juk
konversation-data parley-data ktouch-data khangman
gimp-help-it gimp-help-el gimp-help-pt gimp-help-cs inkscape
libreoffice-l10n-cs libreoffice-l10n-el libreoffice-l10n-he libreoffice-l10n-it
libreoffice-l10n-pl libreoffice-l10n-pt libreoffice-l10n-pt-br libreoffice-l10n-th
libreoffice-l10n-tr libreoffice-l10n-uk libreoffice-l10n-vi libreoffice-l10n-fa
libreoffice-l10n-id
libreoffice-help-cs libreoffice-help-el libreoffice-help-it libreoffice-help-pl
libreoffice-help-pt libreoffice-help-pt-br libreoffice-help-tr libreoffice-help-vi
libreoffice-help-id""".split()

DEB_PKGS = PROBE_DEBS + MORE_DEBS

PY_WHEELS = ["django", "sphinx", "trac"] + [
    "jupyterlab-language-pack-" + s for s in
    "vi-vn pl-pl el-gr he-il tr-tr uk-ua it-it pt-br cs-cz id-id".split()]


# ------------------------------------------------------------------ fetch

def run(cmd, **kw):
    print("+", " ".join(cmd) if isinstance(cmd, list) else cmd, flush=True)
    return subprocess.run(cmd, **kw)


def fetch():
    os.makedirs(DEBS, exist_ok=True)
    os.makedirs(X, exist_ok=True)
    have = {os.path.basename(f).split("_")[0] for f in glob.glob(DEBS + "/*.deb")}
    need = [p for p in DEB_PKGS if p not in have]
    # reuse the probe's already downloaded .debs (same archive files)
    for p in list(need):
        for f in glob.glob(PROBE + "/debs/%s_*.deb" % p):
            if os.path.basename(f).split("_")[0] == p:
                shutil.copy(f, DEBS)
                need.remove(p)
                break
    for i in range(0, len(need), 20):
        run(["apt-get", "download"] + need[i:i + 20], cwd=DEBS)
    for f in sorted(glob.glob(DEBS + "/*.deb")):
        d = X + "/" + os.path.basename(f)[:-4]
        if not os.path.isdir(d):
            tmp = d + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            if run(["dpkg-deb", "-x", f, tmp]).returncode == 0:
                os.rename(tmp, d)
    os.makedirs(PIPD, exist_ok=True)
    os.makedirs(PX, exist_ok=True)
    for p in PY_WHEELS:
        if not any(os.path.basename(f).lower().replace("_", "-").startswith(p + "-")
                   for f in glob.glob(PIPD + "/*")):
            run(["pip", "download", "--no-deps", "--only-binary", ":all:", "-d", PIPD, p])
    for f in sorted(glob.glob(PIPD + "/*.whl")):
        d = PX + "/" + os.path.basename(f)[:-4]
        if not os.path.isdir(d):
            with zipfile.ZipFile(f) as z:
                z.extractall(d)



# ---------------------------------------------------------------- licences

SPDX = {"GPL-2+": "GPL-2.0-or-later", "GPL-2": "GPL-2.0-only", "GPL-3+": "GPL-3.0-or-later",
        "GPL-3": "GPL-3.0-only", "LGPL-2+": "LGPL-2.0-or-later", "LGPL-2.1+": "LGPL-2.1-or-later",
        "LGPL-2.1": "LGPL-2.1-only", "LGPL-3+": "LGPL-3.0-or-later", "GPL-2.0+": "GPL-2.0-or-later",
        "GPL-3.0+": "GPL-3.0-or-later", "LGPL-2.0+": "LGPL-2.0-or-later",
        "GFDL-1.2+": "GFDL-1.2-or-later", "GFDL-1.3+": "GFDL-1.3-or-later", "MPL-2.0": "MPL-2.0"}
FALLBACK_LIC = "see package copyright file"


# read by hand from copyright files the parser above cannot summarise
LICENCE_OVERRIDE = {
    "evolution-data-server-common": "LGPL-2.0-or-later",
    "zenity-common": "LGPL-2.0-or-later",
    "fortunes-br": "GPL-2.0-or-later",
    "fortunes-cs": "GPL-3.0-or-later",
    "gnome-shell-common": "GPL-2.0-or-later",
    "installation-guide-amd64": "GPL-2.0-only",
    "inkscape": "GPL (some portions public domain), see package copyright file",
    "manpages-tr": "GPL, see package copyright file",
    "thunar-data": "GPL-2.0-or-later / LGPL (thunarx), see package copyright file",
    "wget": "GPL-3.0, see package copyright file",
    "xfce4-appfinder": "GPL-2.0-or-later",
    "xfce4-panel": "GPL-2.0-or-later",
    "xfwm4": "GPL-2.0-or-later",
    "debconf-i18n": "BSD-2-Clause",
    "debian-faq-pt": "verbatim/modified copies permitted with notice, see package copyright file",
}


def copyright_licence(copyright_file):
    """Licence of the 'Files: *' stanza of a DEP-5 copyright file, else a
    guess from the GPL wording, else FALLBACK_LIC."""
    try:
        t = open(copyright_file, encoding="utf-8", errors="replace").read()
    except OSError:
        return FALLBACK_LIC
    dep5 = t.lstrip().startswith("Format:")
    for stanza in (re.split(r"\n\s*\n", t) if dep5 else []):
        if re.search(r"^Files:\s*\*\s*$", stanza, re.M):
            m = re.search(r"^License:\s*(.+)$", stanza, re.M)
            if m and len(m.group(1).split()) <= 12:
                lic = m.group(1).strip()
                return SPDX.get(lic, lic)
    m = re.search(r"^License:\s*(.+)$", t, re.M) if dep5 else None
    if m and len(m.group(1).split()) <= 6:
        lic = m.group(1).strip()
        return SPDX.get(lic, lic)
    m = re.search(r"GNU\s+(Lesser\s+|Library\s+)?General\s+Public\s+License.{0,200}?version\s+(\d(\.\d)?)",
                  t, re.S)
    if m:
        base = ("LGPL-" if m.group(1) else "GPL-") + (m.group(2) if "." in m.group(2) else m.group(2) + ".0")
        later = "any later version" in t[m.start():m.start() + 600]
        return base + ("-or-later" if later else "-only")
    return FALLBACK_LIC


def py_licence(root):
    for meta in glob.glob(root + "/*.dist-info/METADATA"):
        t = open(meta, encoding="utf-8", errors="replace").read().split("\n\n")[0]
        m = re.search(r"^License-Expression:\s*(.+)$", t, re.M)
        if m:
            return m.group(1).strip()
        m = re.search(r"^License:\s*(.+)$", t, re.M)
        if m and len(m.group(1)) < 40:
            return m.group(1).strip()
        m = re.search(r"^Classifier: License :: OSI Approved :: (.+)$", t, re.M)
        if m:
            return m.group(1).strip()
    return "see package metadata"


# ------------------------------------------------------------- extraction

def read_bytes(path):
    with open(path, "rb") as fh:
        b = fh.read()
    if path.endswith(".gz"):
        b = gzip.decompress(b)
    return b


def mo_units(path, min_len=20):
    """msgstr texts of a .mo catalog in catalog order; plural forms each
    separately; header skipped; those shorter than min_len left out."""
    b = read_bytes(path)
    magic = struct.unpack("<I", b[:4])[0]
    e = "<" if magic == 0x950412de else ">"
    _, n, oo, to = struct.unpack(e + "4I", b[4:20])
    charset = "utf-8"
    out = []
    for i in range(n):
        olen, ooff = struct.unpack(e + "2I", b[oo + 8 * i: oo + 8 * i + 8])
        tlen, toff = struct.unpack(e + "2I", b[to + 8 * i: to + 8 * i + 8])
        raw = b[toff:toff + tlen]
        if olen == 0:
            m = re.search(rb"charset=([-\w]+)", raw)
            if m:
                charset = m.group(1).decode()
            continue
        try:
            s = raw.decode(charset)
        except (UnicodeDecodeError, LookupError):
            return None
        for form in s.split("\0"):
            if len(form) >= min_len:
                out.append(form)
    return out


def render_man(path):
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", MANWIDTH="80")
    q = "'" + path.replace("'", "'\\''") + "'"
    try:
        p = subprocess.run("man -l %s 2>/dev/null | col -bx" % q, shell=True,
                           capture_output=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    try:
        return p.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None


BRK = "\x00"   # block break marker (never in the texts: control chars are rejected)


class HTMLText(html.parser.HTMLParser):
    BLOCK = {"p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "td", "th",
             "table", "ul", "ol", "pre", "title", "dt", "dd", "dl", "section", "article",
             "header", "footer", "blockquote", "hr", "caption", "figcaption", "nav"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.skip = 0
        self.pre = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "head"):
            self.skip += 1
        if tag == "pre":
            self.pre += 1
        if tag in self.BLOCK:
            self.parts.append(BRK)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in self.BLOCK:
            self.parts.append(BRK)

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data.replace("\n", BRK) if self.pre else data)


def tidy_lines(s):
    """collapse white space (source line breaks included) inside blocks;
    one non-empty block per line"""
    lines = [re.sub(r"\s+", " ", l).strip() for l in s.split(BRK)]
    return [l for l in lines if l]


def html_lines(path):
    b = read_bytes(path)
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError:
        return None
    p = HTMLText()
    p.feed(t)
    p.close()
    return tidy_lines("".join(p.parts))


XML_BLOCK = set("""title subtitle desc p para simpara formalpara item listitem td th tr entry row
term varlistentry code screen programlisting synopsis note tip warning caution important
section sect1 sect2 sect3 sect4 chapter page list steps terms table example figure caption
refpurpose refname refsect1 refsect2 glossterm glossdef question answer qandaentry
blockquote literallayout cmdsynopsis bridgehead br li dt dd""".split())


def xml_lines(path):
    """Text of a Mallard/DocBook file: block elements one per line, markup,
    metadata (<info>, <*info>) and comments dropped."""
    b = read_bytes(path)
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError:
        return None
    t = re.sub(r"<!--.*?-->", " ", t, flags=re.S)
    t = re.sub(r"<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", " ", t, flags=re.S)
    t = re.sub(r"<\?.*?\?>", " ", t, flags=re.S)
    t = re.sub(r"<((?:\w+:)?(?:\w*info))\b[^>]*>.*?</\1\s*>", " ", t, flags=re.S)

    # verbatim blocks keep their line breaks
    t = re.sub(r"<((?:\w+:)?(?:screen|programlisting|literallayout|synopsis))\b[^>]*>.*?</\1\s*>",
               lambda m: m.group(0).replace("\n", BRK), t, flags=re.S)

    def tag(m):
        name = m.group(1).split(":")[-1]
        return BRK if name in XML_BLOCK else ""
    t = re.sub(r"</?([\w:.-]+)(?:\s[^>]*)?/?>", tag, t)
    t = html.unescape(t)
    return tidy_lines(t)


def text_lines(path):
    b = read_bytes(path)
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return t.replace("\r\n", "\n").split("\n")


# --------------------------------------------------------------- documents

class Doc:
    def __init__(self, src, name, ver, root, rel, typ, lang, est):
        self.src = src          # "Debian" | "PyIndex"
        self.name = name        # package name
        self.ver = ver
        self.root = root        # unpacked package dir
        self.rel = rel          # path inside the package
        self.typ = typ          # mo | man | help | docbook | html | fortune
        self.lang = lang
        self.est = est          # estimated characters of text
        self._units = None
        self.used = 0

    @property
    def path(self):
        return os.path.join(self.root, self.rel)

    def units(self):
        if self._units is None:
            try:
                if self.typ == "mo":
                    u = mo_units(self.path)
                elif self.typ == "man":
                    t = render_man(self.path)
                    u = t.split("\n") if t else None
                elif self.typ == "html":
                    u = html_lines(self.path)
                elif self.typ in ("help", "docbook"):
                    u = xml_lines(self.path)
                else:
                    u = text_lines(self.path)
            except Exception as ex:  # noqa: broken file -> unusable
                print("  unreadable", self.path, ex, file=sys.stderr)
                u = None
            self._units = u or []
            if self._units:
                self.est = sum(len(x) + 1 for x in self._units)
            else:
                self.est = 0
        return self._units

    def label(self):
        if self.src == "PyIndex":
            return "Python package index wheel %s %s" % (self.name, self.ver)
        return "Debian package %s %s" % (self.name, self.ver)

    def how(self, a, b):
        if self.typ == "mo":
            return ("msgstr texts decoded from the .mo catalog, one per line in catalog order "
                    "(plural forms separately, embedded newlines kept, translations under 20 "
                    "characters left out), texts %d-%d of that listing" % (a + 1, b))
        if self.typ == "man":
            return "rendered with man -l | col -bx (MANWIDTH=80), lines %d-%d" % (a + 1, b)
        if self.typ == "html":
            return ("text content of the HTML (markup dropped, one block element per line, "
                    "blank lines dropped), lines %d-%d" % (a + 1, b))
        if self.typ in ("help", "docbook"):
            what = "Mallard/DocBook help page" if self.typ == "help" else "KDE DocBook handbook"
            ent = ", entity references such as &kde; left as written" if self.typ == "docbook" else ""
            return ("text content of the %s (markup and <info> metadata dropped, one block "
                    "element per line%s), lines %d-%d" % (what, ent, a + 1, b))
        return "plain text file, lines %d-%d" % (a + 1, b)


LANG_TOKEN = re.compile(r"^(%s)([-_][A-Za-z]{2})?(\.UTF-8)?$" % "|".join(LANGS + ["iw"]))
CODE_ALIAS = {"iw": "he"}


def lang_of_token(tok):
    m = LANG_TOKEN.match(tok)
    if not m:
        return None
    code = CODE_ALIAS.get(m.group(1), m.group(1))
    if code == "pt" and m.group(2) and m.group(2)[1:].upper() not in ("BR", "PT"):
        return None
    if m.group(2) and code != "pt":
        # e.g. vi-VN, it-IT, uk_UA, he-IL: country part must fit the language
        ok = {"vi": "VN", "pl": "PL", "el": "GR", "he": "IL", "th": "TH", "tr": "TR",
              "fa": "IR", "uk": "UA", "it": "IT", "cs": "CZ", "id": "ID"}
        if m.group(2)[1:].upper() != ok[code]:
            return None
    return code


def pkg_of_dir(d):
    base = os.path.basename(d)
    parts = base.split("_")
    return parts[0], parts[1].replace("%3a", ":")


FORTUNE_LANG = {"fortunes-pl": "pl", "fortunes-it": "it", "fortunes-cs": "cs", "fortunes-br": "pt"}


def classify(rel, name):
    """-> (typ, lang) or None"""
    parts = rel.split("/")
    fn = parts[-1]
    if fn.endswith(".mo"):
        if "LC_MESSAGES" in parts:
            i = parts.index("LC_MESSAGES")
            if i > 0:
                lang = lang_of_token(parts[i - 1])
                if lang:
                    return "mo", lang
        return None
    if rel.startswith("usr/share/man/") and len(parts) >= 5 and re.match(r"man\d", parts[4]):
        lang = lang_of_token(parts[3])
        return ("man", lang) if lang else None
    if rel.startswith("usr/share/help/") and len(parts) >= 5 and re.search(r"\.(page|xml)$", fn):
        lang = lang_of_token(parts[3])
        return ("help", lang) if lang else None
    if rel.startswith("usr/share/doc/HTML/") and fn.endswith(".docbook"):
        lang = lang_of_token(parts[4])
        return ("docbook", lang) if lang else None
    if name in FORTUNE_LANG and rel.startswith("usr/share/games/fortunes/"):
        if fn.endswith(".dat") or fn.endswith(".u8"):
            return None
        if name == "fortunes-cs" and "/sk/" in rel:
            return None
        return "fortune", FORTUNE_LANG[name]
    if re.search(r"\.(html?|xhtml)(\.gz)?$", fn) and re.match(
            r"usr/share/(doc|debian-reference|developers-reference|gimp/2\.0/help|libreoffice/help)/", rel):
        for p in parts[2:-1]:
            lang = lang_of_token(p)
            if lang:
                return "html", lang
        m = re.search(r"\.([A-Za-z_-]+)\.html?(\.gz)?$", fn)
        if m:
            lang = lang_of_token(m.group(1))
            if lang:
                return "html", lang
        m = re.match(r"(maint-guide|debian-reference|developers-reference|debian-faq)-(\w\w(?:-br)?)$", name)
        if m:
            lang = lang_of_token(m.group(2).replace("-br", "_BR"))
            if lang:
                return "html", lang
    return None


EST = {"mo": 0.45, "man": 0.9, "html": 0.35, "help": 0.45, "docbook": 0.6, "fortune": 1.0}


def scan():
    """All candidate documents: {lang: [Doc]}"""
    docs = collections.defaultdict(list)
    roots = [("Debian", d) for d in sorted(glob.glob(X + "/*")) if os.path.isdir(d)]
    roots += [("PyIndex", d) for d in sorted(glob.glob(PX + "/*")) if os.path.isdir(d)]
    for src, root in roots:
        if src == "Debian":
            name, ver = pkg_of_dir(root)
        else:
            base = os.path.basename(root)
            name, ver = base.split("-")[0], base.split("-")[1]
            name = name.replace("_", "-")
        for dp, dns, fns in os.walk(root):
            dns.sort()
            for fn in sorted(fns):
                full = os.path.join(dp, fn)
                if os.path.islink(full):
                    continue
                rel = os.path.relpath(full, root)
                c = classify(rel, name)
                if not c:
                    continue
                typ, lang = c
                size = os.path.getsize(full)
                if full.endswith(".gz"):
                    size *= 3
                docs[lang].append(Doc(src, name, ver, root, rel, typ, lang, int(size * EST[typ])))
    return docs


# ------------------------------------------------------------ text checks

SCRIPT = {
    "el": [(0x370, 0x3FF), (0x1F00, 0x1FFF)],
    "he": [(0x590, 0x5FF), (0xFB1D, 0xFB4F)],
    "th": [(0xE00, 0xE7F)],
    "fa": [(0x600, 0x6FF), (0x750, 0x77F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)],
    "uk": [(0x400, 0x4FF)],
}
STOP = {
    "en": "the and of to is in that for with are this be not or by on as from you your can".split(),
    "pl": "i w na z się nie do jest to że o jak co po dla lub oraz przez może być są ten ta od za".split(),
    "cs": "a v se na je to že s z do o k pro jak ale není jsou nebo by být tento při jako bude".split(),
    "tr": "ve bir bu için ile de da olarak çok daha ne gibi değil olan veya var en ya kadar bu".split(),
    "vi": "của và là các có được cho không một này để trong với những khi đã từ bạn tập tin sẽ".split(),
    "it": "il di che la per non un una è del della le in si con da sono al i gli lo questo nel".split(),
    "pt": "de que não o a para um uma é do da os as em no na com se por ao ser você".split(),
    "id": "dan yang di untuk dengan tidak ini dari ke akan pada dalam atau itu adalah bisa dapat".split(),
}
STOPSET = {k: set(v) for k, v in STOP.items()}
UK_ONLY = set("іїєґ")
RU_ONLY = set("ыэъё")


def script_ratio(t, ranges):
    letters = [c for c in t if c.isalpha()]
    if not letters:
        return 0.0
    n = sum(1 for c in letters if any(a <= ord(c) <= b for a, b in ranges))
    return n / len(letters)


def lang_ok_whole(lang, t):
    if lang in SCRIPT:
        r = script_ratio(t, SCRIPT[lang])
        if r < 0.6:
            return False
        if lang == "uk":
            low = t.lower()
            uk = sum(low.count(c) for c in UK_ONLY)
            ru = sum(low.count(c) for c in RU_ONLY)
            return uk > 0 and ru <= uk * 0.2
        if lang == "fa":
            # Persian letters, not only Arabic ones
            return any(c in t for c in "پچژگی")
        return True
    words = re.findall(r"[^\W\d_]+", t.lower())
    if len(words) < 20:
        return False
    own = sum(1 for w in words if w in STOPSET[lang])
    en = sum(1 for w in words if w in STOPSET["en"] and w not in STOPSET[lang])
    return own >= 0.05 * len(words) and own > 2.5 * en and en < 0.04 * len(words)


def chunk_ok(lang, t):
    """no stretch of ~800 characters may be mostly English (or, for the
    non-Latin scripts, mostly in another script)"""
    if lang in SCRIPT:
        letters = sum(1 for c in t if c.isalpha())
        return letters < 60 or script_ratio(t, SCRIPT[lang]) >= 0.45
    words = re.findall(r"[^\W\d_]+", t.lower())
    if len(words) < 15:
        return True
    en = sum(1 for w in words if w in STOPSET["en"] and w not in STOPSET[lang])
    return en <= 0.07 * len(words)


def lang_ok(lang, t):
    if not lang_ok_whole(lang, t):
        return False
    chunk = []
    n = 0
    for line in t.split("\n"):
        chunk.append(line)
        n += len(line) + 1
        if n >= 800:
            if not chunk_ok(lang, "\n".join(chunk)):
                return False
            chunk, n = [], 0
    if n >= 300 and not chunk_ok(lang, "\n".join(chunk)):
        return False
    return True


CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")


def clean_ok(t):
    low = t.lower()
    if EMAIL.search(t):
        return False
    if any(f in low for f in FORBIDDEN):
        return False
    if CTRL.search(t) or "\ufffd" in t:
        return False
    try:
        t.encode("utf-8")
    except UnicodeError:
        return False
    return True


# ----------------------------------------------------- overlap (200 chars)

W = 200


class Windows:
    def __init__(self):
        self.h = set()

    def add(self, t):
        h = self.h
        for i in range(0, max(0, len(t) - W + 1)):
            h.add(hash(t[i:i + W]))

    def clash(self, t):
        h = self.h
        for i in range(0, max(0, len(t) - W + 1)):
            if hash(t[i:i + W]) in h:
                return True
        return False


def existing_texts(exclude_dir=None):
    files = glob.glob(MAIN_CORPUS + "/*/*.txt") + glob.glob(PROBE + "/*/*.txt")
    files += glob.glob(PROBE + "/*/*/*.txt")
    own = {"prose-" + lang for lang in LANGS}
    for f in sorted(set(files)):
        if exclude_dir and os.path.abspath(f).startswith(exclude_dir):
            continue
        # This set's own kinds, once copied into the corpus, are what a re-run rebuilds.
        if os.path.dirname(os.path.abspath(f)) in {os.path.join(MAIN_CORPUS, k) for k in own}:
            continue
        try:
            yield f, open(f, encoding="utf-8", errors="replace").read()
        except OSError:
            pass


def probe_exclusions():
    """paths (inside their package) used by the probe set"""
    ex = set()
    for f in glob.glob(PROBE + "/*/SOURCES.tsv"):
        for line in open(f, encoding="utf-8", errors="replace"):
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 2 or cols[0] == "id":
                continue
            for m in re.finditer(r"(?:^|[\s,:(])/?((?:usr|etc|opt|var|lib|bin|sbin|src|[\w.+-]+/)[^\s,;)]*)", cols[1]):
                ex.add(m.group(1).lstrip("/"))
    return ex


# ---------------------------------------------------------------- building

N = 40
MINC, MAXC = 200, 40000
BANDS = ((220, 1500, 13), (1500, 6000, 13), (6000, 38000, 14))


def band_targets(rng):
    t = []
    for lo, hi, n in BANDS:
        for _ in range(n):
            t.append(int(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
    rng.shuffle(t)
    return t


def licence_of(doc, cache={}):
    key = (doc.src, doc.root)
    if doc.src == "Debian" and doc.name in LICENCE_OVERRIDE:
        return LICENCE_OVERRIDE[doc.name]
    if key not in cache:
        if doc.src == "PyIndex":
            cache[key] = py_licence(doc.root)
        else:
            cands = [doc.root + "/usr/share/doc/%s/copyright" % doc.name]
            cands += sorted(glob.glob(doc.root + "/usr/share/doc/*/copyright"))
            lic = FALLBACK_LIC
            for c in cands:
                if os.path.exists(c):
                    lic = copyright_licence(c)
                    break
            cache[key] = lic
    return cache[key]


def excerpt(doc, target, rng, lang, windows, tries=6):
    u = doc.units()
    if not u:
        return None
    lens = [len(x) + 1 for x in u]
    suffix = [0] * (len(u) + 1)
    for i in range(len(u) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + lens[i]
    starts = [i for i in range(len(u)) if u[i].strip() and suffix[i] >= target]
    if not starts:
        return None
    for _ in range(tries):
        a = rng.choice(starts)
        n, b = 0, a
        while b < len(u) and n < target:
            if n + lens[b] > MAXC:
                break
            n += lens[b]
            b += 1
        while b > a and not u[b - 1].strip():
            b -= 1
        text = "\n".join(u[a:b]) + "\n"
        if not (MINC <= len(text) <= MAXC) or len(text) < 0.8 * target:
            continue
        if not clean_ok(text) or not lang_ok(lang, text):
            continue
        if windows.clash(text):
            continue
        return text, a, b
    return None


def build_kind(lang, docs, windows, ex):
    kind = "prose-" + lang
    rng = random.Random("gather-e:" + kind)
    targets = band_targets(rng)
    docs = [d for d in docs if d.rel not in ex and d.est >= MINC]
    docs.sort(key=lambda d: (d.name, d.rel))
    cls = lambda d: "mo" if d.typ == "mo" else "text"
    bycls = {"mo": collections.defaultdict(list), "text": collections.defaultdict(list)}
    for d in docs:
        bycls[cls(d)][d.name].append(d)
    rot = {}
    for c in bycls:
        names = sorted(bycls[c])
        rng.shuffle(names)
        rot[c] = names
    ptr = {"mo": 0, "text": 0}
    used_pkg = collections.Counter()
    used_file = collections.Counter()
    results = [None] * N
    order = sorted(range(N), key=lambda i: -targets[i])
    def pick(T, pref):
        for cap in (2, 3, 4, 6, 10):
            for c in pref:
                names = rot[c]
                for j in range(len(names)):
                    name = names[(ptr[c] + j) % len(names)]
                    if used_pkg[name] >= cap:
                        continue
                    cand = [d for d in bycls[c][name]
                            if used_file[(d.name, d.rel)] < 2 and d.est >= T]
                    if not cand:
                        continue
                    rng.shuffle(cand)
                    cand.sort(key=lambda d: used_file[(d.name, d.rel)])
                    for d in cand[:5]:
                        r = excerpt(d, T, rng, lang, windows)
                        if r:
                            ptr[c] = (ptr[c] + j + 1) % len(names)
                            return (d,) + r
        return None

    for k, i in enumerate(order):
        T = targets[i]
        pref = ["text", "mo"] if k % 2 == 0 else ["mo", "text"]
        lo = max(b[0] for b in BANDS if b[0] <= T)
        got = pick(T, pref)
        while not got and int(T * 0.8) >= lo:
            # nothing left that long: a shorter target in the same size band
            T = int(T * 0.8)
            got = pick(T, pref)
        if not got:
            print("  %s: no sample for target %d" % (kind, targets[i]), file=sys.stderr)
            continue
        d, text, a, b = got
        windows.add(text)
        used_pkg[d.name] += 1
        used_file[(d.name, d.rel)] += 1
        results[i] = (d, text, a, b)
        print("  %s slot %02d target %5d -> %5d chars  %s %s" % (kind, i + 1, T, len(text), d.name, d.rel),
              flush=True)
    return [r for r in results if r]


def write_kind(lang, results):
    kind = "prose-" + lang
    kd = os.path.join(OUT, kind)
    os.makedirs(kd, exist_ok=True)
    for f in glob.glob(kd + "/*.txt") + glob.glob(kd + "/SOURCES.tsv"):
        os.remove(f)
    rows = ["id\torigin\tlicence"]
    for n, (d, text, a, b) in enumerate(results, 1):
        sid = "%s-%03d" % (kind, n)
        with open(os.path.join(kd, sid + ".txt"), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        origin = "%s: %s, %s" % (d.label(), d.rel, d.how(a, b))
        rows.append("%s\t%s\t%s" % (sid, origin.replace("\t", " "), licence_of(d).replace("\t", " ")))
    with open(os.path.join(kd, "SOURCES.tsv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(rows) + "\n")
    pk = {d.name for d, *_ in results}
    print("%s: %d samples, %d packages, %d chars" % (kind, len(results), len(pk),
                                                      sum(len(r[1]) for r in results)), flush=True)


def build(langs):
    ex = probe_exclusions()
    windows = Windows()
    for f, t in existing_texts(exclude_dir=OUT):
        windows.add(t)
    # samples of kinds not rebuilt now stay and must not be overlapped
    for lang in LANGS:
        if lang not in langs:
            for f in sorted(glob.glob(os.path.join(OUT, "prose-" + lang, "*.txt"))):
                windows.add(open(f, encoding="utf-8").read())
    alldocs = scan()
    for lang in langs:
        res = build_kind(lang, alldocs.get(lang, []), windows, ex)
        write_kind(lang, res)


# ------------------------------------------------------------------ verify

def verify():
    ex = probe_exclusions()
    ok = True
    texts = {}
    for lang in LANGS:
        kind = "prose-" + lang
        kd = os.path.join(OUT, kind)
        rows = [l.rstrip("\n").split("\t") for l in open(kd + "/SOURCES.tsv", encoding="utf-8")]
        assert rows[0] == ["id", "origin", "licence"], rows[0]
        ids = [r[0] for r in rows[1:]]
        files = sorted(os.path.basename(f)[:-4] for f in glob.glob(kd + "/*.txt"))
        if ids != files:
            print("MISMATCH ids/files", kind)
            ok = False
        per_file = collections.Counter()
        bands = [0, 0, 0]
        pk = set()
        for r in rows[1:]:
            m = re.match(r"(?:Debian package|Python package index wheel) (\S+) (\S+): ([^,]+),", r[1])
            pk.add(m.group(1))
            per_file[(m.group(1), m.group(3))] += 1
            if m.group(3) in ex:
                print("EXCLUDED FILE USED", r[0], m.group(3))
                ok = False
            b = open(os.path.join(kd, r[0] + ".txt"), "rb").read()
            t = b.decode("utf-8")
            texts[r[0]] = t
            if not (MINC <= len(t) <= MAXC) or not clean_ok(t) or not lang_ok(lang, t):
                print("BAD", r[0], len(t))
                ok = False
            bands[0 if len(t) < 1500 else 1 if len(t) < 6000 else 2] += 1
        if max(per_file.values()) > 2:
            print("FILE USED >2", kind)
            ok = False
        print("%s: %d samples, %d packages, %d chars, bands %s" % (
            kind, len(ids), len(pk), sum(len(texts[i]) for i in ids), bands))
    # overlap: new vs new and new vs existing
    owner = {}
    for sid, t in texts.items():
        for i in range(0, max(0, len(t) - W + 1)):
            h = hash(t[i:i + W])
            o = owner.get(h)
            if o is not None and o != sid:
                print("OVERLAP", sid, o)
                ok = False
                break
            owner[h] = sid
    for f, t in existing_texts(exclude_dir=OUT):
        for i in range(0, max(0, len(t) - W + 1)):
            if hash(t[i:i + W]) in owner:
                print("OVERLAP with existing", f, owner[hash(t[i:i + W])])
                ok = False
                break
    print("OK" if ok else "PROBLEMS")
    return ok


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--fetch"]:
        fetch()
    elif args[:1] == ["--verify"]:
        sys.exit(0 if verify() else 1)
    else:
        langs = [a.replace("prose-", "") for a in args] or LANGS
        build(langs)
