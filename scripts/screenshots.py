"""Screenshots of the browser app for docs/images: the analysis board at
three window sizes (390x844 phone, 1024x768, 1280x800), in both themes and
both languages, and the search-tree view. Starts its own ``zerosum serve``
and drives Debian's Chromium through Playwright (as the browser tests do).

    PYTHONPATH=src python3 scripts/screenshots.py [--out docs/images] [--only web-analysis]

The README shows web-analysis.png (1280x800, light, English), web-phone.png
(390x844) and web-trace.png; the others (web-WIDTHxHEIGHT-THEME-LANG.png)
are there to check every layout by eye. The Chinese ones need a CJK font
(Debian: ``apt-get install fonts-wqy-zenhei`` or ``fonts-noto-cjk``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"phone": (390, 844), "tablet": (1024, 768), "laptop": (1280, 800)}
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def serve() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "serve", "--port", "0"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "LANGUAGE": "en"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"http://\S+/", line)
    if not match:
        process.kill()
        raise SystemExit(f"zerosum serve did not start: {line!r}")
    return process, match.group(0)


def analysis_board(page: Any, url: str, lang: str, review: bool) -> None:
    """A Connect Four game with a variation, analysed (and reviewed)."""
    page.goto(url + "#game=connect4&moves=1.%204%204%20(1...%203)%202.%203%205%203.%205%202")
    page.wait_for_selector("body[data-ready='1']")
    if lang != "en":
        page.select_option("#lang", lang)
        page.wait_for_function("document.documentElement.lang.startsWith('zh')")
    page.wait_for_function("document.body.dataset.ply === '6'")
    if review:
        page.click("#review")
        page.wait_for_function("document.body.dataset.searching === ''", timeout=120_000)
    page.fill("#analysis-time", "2")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.wait_for_function("document.body.dataset.searching === ''", timeout=120_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--only", help="make only the image of this name (without .png)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("Debian's chromium is needed: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    process, url = serve()
    shots: list[tuple[str, str, tuple[int, int], str, str]] = []
    for viewport in SIZES.values():
        for theme in ("light", "dark"):
            for lang in ("en", "zh"):
                name = f"web-{viewport[0]}x{viewport[1]}-{theme}-{lang}"
                shots.append((name, "board", viewport, theme, lang))
    shots += [
        ("web-analysis", "board", SIZES["laptop"], "light", "en"),
        ("web-phone", "board", SIZES["phone"], "light", "en"),
        ("web-trace", "tree", SIZES["laptop"], "light", "en"),
        ("web-trace-phone-dark", "tree", SIZES["phone"], "dark", "en"),
    ]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS)
            for name, what, (width, height), theme, lang in shots:
                if args.only and name != args.only:
                    continue
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    color_scheme="dark" if theme == "dark" else "light",
                    locale="zh-CN" if lang == "zh" else "en-US", device_scale_factor=1,
                )
                page = context.new_page()
                if what == "board":
                    analysis_board(page, url, lang, review=name in ("web-analysis", "web-phone"))
                    page.evaluate("window.scrollTo(0, 0)")
                else:
                    page.goto(url)
                    page.wait_for_selector("body[data-ready='1']")
                    page.click("#tab-tree")
                    page.click("[data-example='dom-2']")
                    page.wait_for_selector("#tree-view[data-ready='1']")
                    for _ in range(9):
                        page.click("#tree-forward")
                time.sleep(0.3)
                page.screenshot(path=str(out / f"{name}.png"))
                print(out / f"{name}.png")
                context.close()
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
