"""Drive a gcperf report in headless Chromium, as a reader would, and say what it found.

    python3 tests/browser/report_check.py REPORT_DIR [SHOTS_DIR]

Needs Debian's chromium (/usr/bin/chromium) and `pip install playwright` (the package only:
it drives the machine's Chromium, no browser download). `tests/report.rs` runs it; with
SHOTS_DIR it also saves screenshots of the index and the first run page.

Checks, each failure a line on stdout and exit 1:
- the index and every run page load from disk with no console error, no page error and no
  request other than file:// ones;
- every image of every page loads (scrolled into view: they load lazily);
- clicking a numeric column's header sorts the rows by it, a second click reverses them;
- typing into a table's filter hides the rows without the text;
- every run page links back to the index, and every run link of the index opens a page.
Prints `pages N, images N, sorted N tables` on success.
"""

import os
import sys
from playwright.sync_api import sync_playwright

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main():
    report = os.path.abspath(sys.argv[1])
    shots = sys.argv[2] if len(sys.argv) > 2 else None
    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        where = {"url": ""}
        page.on(
            "console",
            lambda m: m.type == "error"
            and problems.append(f"{where['url']}: console error: {m.text}"),
        )
        page.on("pageerror", lambda e: problems.append(f"{where['url']}: page error: {e}"))
        page.on(
            "request",
            lambda r: not r.url.startswith("file://")
            and problems.append(f"{where['url']}: network request: {r.url}"),
        )

        def visit(url):
            where["url"] = url
            page.goto(url, wait_until="load")
            # Lazy images load as they come into view; a reader scrolls, the check asks each
            # to load now and waits for all (10 s at most: one that never settles is a
            # failure below, not a hang).
            page.evaluate(
                """async () => {
                  const imgs = Array.from(document.images);
                  for (const i of imgs) { i.loading = 'eager'; }
                  const settled = Promise.all(imgs.map(i => i.complete ? 0 :
                    new Promise(r => { i.onload = r; i.onerror = r; })));
                  await Promise.race([settled, new Promise(r => setTimeout(r, 10000))]);
                }"""
            )
            imgs = page.eval_on_selector_all(
                "img",
                "els => els.map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])",
            )
            for src, ok in imgs:
                if not ok:
                    problems.append(f"{url}: image not loaded: {src}")
            return len(imgs)

        index = "file://" + os.path.join(report, "index.html")
        images = visit(index)
        if shots:
            page.screenshot(path=os.path.join(shots, "index.png"))
        runs = page.eval_on_selector_all(
            "a[href^='runs/']", "els => els.map(a => a.href.split('#')[0])"
        )
        runs = list(dict.fromkeys(runs))
        if not runs:
            problems.append("index: no link to a run page")

        sorted_tables = 0
        for table in page.query_selector_all("table.sort"):
            tid = table.get_attribute("id")
            rows = table.eval_on_selector_all("tbody tr", "rs => rs.length")
            if rows < 3:
                continue
            # The first numeric column not already in order.
            heads = table.query_selector_all("thead th")
            for k, th in enumerate(heads):
                if "n" not in (th.get_attribute("class") or "").split():
                    continue
                col = f"""() => Array.from(document.querySelectorAll('#{tid} tbody tr'))
                    .map(r => r.cells[{k}]).map(c => c.getAttribute('data-v') ?? c.textContent.trim())
                    .filter(v => v !== '').map(parseFloat)"""
                before = page.evaluate(col)
                # A column already in order (the rank) shows nothing of the sorting.
                if before in (sorted(before), sorted(before, reverse=True)):
                    continue
                th.click()
                desc = page.evaluate(col)
                th.click()
                asc = page.evaluate(col)
                if desc != sorted(before, reverse=True):
                    problems.append(f"index: #{tid} by {th.inner_text()}: not descending: {desc[:8]}")
                if asc != sorted(before):
                    problems.append(f"index: #{tid} by {th.inner_text()}: not ascending: {asc[:8]}")
                sorted_tables += 1
                break
            f = page.query_selector(f"input.filter[data-for='{tid}']")
            if f is not None:
                first = table.eval_on_selector("tbody tr td:nth-child(2)", "c => c.textContent")
                f.fill(first)
                shown = page.evaluate(
                    f"""() => Array.from(document.querySelectorAll('#{tid} tbody tr'))
                        .filter(r => r.style.display !== 'none').map(r => r.textContent)"""
                )
                if not shown or any(first.lower() not in s.lower() for s in shown):
                    problems.append(f"index: #{tid} filter {first!r} shows {len(shown)} rows")
                f.fill("")
        if sorted_tables == 0:
            problems.append("index: no table could be sorted")

        for k, url in enumerate(runs):
            images += visit(url)
            back = page.query_selector("nav.back a[href='../index.html']")
            if back is None:
                problems.append(f"{url}: no link back to the index")
            if k == 0 and shots:
                page.screenshot(path=os.path.join(shots, "run.png"), full_page=False)
        if shots:
            # The run page with the most to show: a GC log with findings.
            for url in runs:
                where["url"] = url
                page.goto(url, wait_until="load")
                if page.query_selector(".finding") and page.query_selector("img"):
                    page.query_selector(".finding").scroll_into_view_if_needed()
                    page.screenshot(path=os.path.join(shots, "run-findings.png"))
                    break
        browser.close()
    for p_ in problems:
        print(p_)
    print(f"pages {len(runs) + 1}, images {images}, sorted {sorted_tables} tables")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
