"""Take the replay page's screenshots in docs/ (docs/guide.md, docs/replay.md).

    .venv/bin/shmod replay games/forum-10-players.yaml -o /tmp/replay.html
    .venv/bin/python tools/replay_screenshots.py /tmp/replay.html docs

Headless Chromium (Debian's /usr/bin/chromium, or ``SHMOD_CHROMIUM``) through Playwright,
as tests/test_replay_page.py opens the page: a step at desktop width with the roles and
the hands shown, and the same game on a phone.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: (file, viewport, step, switches on, the element scrolled to the top)
SHOTS = [
    ("replay-desktop.png", (1280, 1000), 31, ("roles", "hands"), "body"),
    ("replay-desktop-end.png", (1280, 1000), 77, (), "body"),
    ("replay-phone.png", (390, 844), 12, (), "body"),
    ("replay-phone-votes.png", (390, 844), 31, ("roles",), "#state-h"),
]


def main(page_path: str, folder: str) -> None:
    chromium = os.environ.get("SHMOD_CHROMIUM", "/usr/bin/chromium")
    url = Path(page_path).resolve().as_uri()
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=FLAGS)
        for name, (width, height), step, switches, top in SHOTS:
            page = browser.new_page(viewport={"width": width, "height": height},
                                    device_scale_factor=1)
            page.goto(f"{url}#step-{step}")
            for switch in switches:
                page.check(f"#show-{switch}")
            page.eval_on_selector(top, "(element) => element.scrollIntoView()")
            page.screenshot(path=str(Path(folder) / name))
            page.close()
            print(f"wrote {Path(folder) / name}")
        browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
