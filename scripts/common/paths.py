"""Where the build puts things: the one list of folders and files that tools/ and course_build/ share.

tools/offline_copy.py and tools/pdf.py write the downloads and list them in DOWNLOADS_INDEX;
course_build/downloads.py reads that list. Both import the paths from here, so they cannot drift apart.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "generated"
BUILD = ROOT / "build"                                    # git-ignored: everything made, nothing committed
OFFLINE_COPY = BUILD / "offline" / "attention-course"     # the offline copy (opens from disk), zipped into DOWNLOADS
DOWNLOADS = BUILD / "downloads"                           # files the site offers: the offline archive, one PDF a language
DOWNLOADS_INDEX = DOWNLOADS / "downloads.json"            # {key: {"file": name}}: written by tools, read by course_build
SITE = ROOT / "site"                                      # mkdocs.yml site_dir unless SITE_DIR says otherwise
PRINT_PAGES = BUILD / "print-pages"                      # each lesson's final content, saved by course_build/print_pages.py for tools/pdf.py
