"""index.html as a reader sees it: headless Chromium opens the page, no console errors,
every figure loaded, a screenshot saved (next to the report, as screenshot.png).

Skipped, with the reason, when no Chromium is installed (``make test`` installs Debian's
``chromium`` where it can).
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and Path(p).exists()),
    None,
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium at /usr/bin/chromium (make test installs Debian's chromium as root)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page:
    """A minimal DevTools-protocol client for one page."""

    def __init__(self, url: str) -> None:
        import websocket

        self.ws = websocket.create_connection(url, timeout=30)
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def drain(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        self.ws.settimeout(0.2)
        while time.monotonic() < end:
            try:
                self.events.append(json.loads(self.ws.recv()))
            except Exception:  # noqa: BLE001 - a timeout: nothing more arrived yet
                continue
        self.ws.settimeout(30)

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(json.dumps(params.get("args", []))[:300])
            elif method == "Runtime.exceptionThrown":
                out.append(json.dumps(params.get("exceptionDetails", {}))[:300])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(params["entry"].get("text", "")[:300])
        return out


@pytest.fixture
def chromium(tmp_path: Path):
    port = _free_port()
    proc = subprocess.Popen(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--remote-debugging-port={port}",
            "--remote-allow-origins=*",
            "--window-size=1280,2000",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        targets = None
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=1) as r:
                    targets = [t for t in json.load(r) if t.get("type") == "page"]
                if targets:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        if not targets:
            pytest.fail("Chromium started but its DevTools endpoint never answered")
        page = Page(targets[0]["webSocketDebuggerUrl"])
        yield page
        page.ws.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


SORT_CHECK = """(() => {
  const out = [];
  document.querySelectorAll('table.sortable').forEach((t, n) => {
    const rows = () => Array.from(t.tBodies[0].rows);
    if (rows().length < 2) return;
    const heads = Array.from(t.tHead.rows[0].cells);
    for (const th of heads) {
      const col = th.cellIndex;
      const values = rows().map(r => parseFloat(r.cells[col].dataset.v));
      if (values.some(isNaN) || new Set(values).size !== values.length) continue;
      th.click();
      const up = rows().map(r => parseFloat(r.cells[col].dataset.v));
      th.click();
      const down = rows().map(r => parseFloat(r.cells[col].dataset.v));
      out.push([n, col, up, down]);
      return;
    }
  });
  return JSON.stringify(out);
})()"""
"""For every sortable table with a column of distinct numbers: [table, column, the column's
values after one click, after a second]."""


def test_report_page_loads_cleanly_in_chromium(small_report, chromium: Page) -> None:
    index = small_report.index
    for domain in ("Runtime", "Log", "Page"):
        chromium.call(f"{domain}.enable")
    chromium.call("Page.navigate", url=index.resolve().as_uri())
    for _ in range(100):
        state = chromium.call("Runtime.evaluate", expression="document.readyState")
        if state["result"].get("value") == "complete":
            break
        time.sleep(0.1)
    chromium.drain(0.5)
    images = chromium.call(
        "Runtime.evaluate",
        expression="JSON.stringify(Array.from(document.images).map("
        "i => [i.alt, i.complete, i.naturalWidth]))",
        returnByValue=True,
    )["result"]["value"]
    images = json.loads(images)
    from sim.report.figures import figure_list

    assert len(images) == len(figure_list(small_report.report.dataset.arms)) == 6
    assert all(complete and width > 0 for _alt, complete, width in images), images
    # every sortable table sorts by the clicked column: in each, a column whose values are
    # distinct numbers, clicked once (ascending) and again (descending)
    sorted_tables = chromium.call(
        "Runtime.evaluate",
        expression=SORT_CHECK,
        returnByValue=True,
    )
    assert "value" in sorted_tables["result"], sorted_tables
    checked = json.loads(sorted_tables["result"]["value"])
    assert len(checked) >= 3, checked  # the answer cards, the arms table, the comparisons
    for table, column, up, down in checked:
        assert up == sorted(up), (table, column, up)
        assert down == sorted(down, reverse=True), (table, column, down)
    # the answer cards fit a 1280 px window without sideways scrolling
    chromium.call(
        "Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1,
        mobile=False,
    )  # fmt: skip
    widths = chromium.call(
        "Runtime.evaluate",
        expression="JSON.stringify(Array.from(document.querySelectorAll('.card table'))"
        ".map(t => [t.scrollWidth, t.clientWidth]).concat("
        "Array.from(document.querySelectorAll('.card')).map(c => [c.getBoundingClientRect()"
        ".right, document.documentElement.clientWidth])))",
        returnByValue=True,
    )["result"]["value"]
    widths = json.loads(widths)
    assert widths and all(scroll <= client for scroll, client in widths), widths
    shot = chromium.call("Page.captureScreenshot", format="png")
    path = index.parent / "screenshot.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.stat().st_size > 10_000
    assert chromium.errors() == []
