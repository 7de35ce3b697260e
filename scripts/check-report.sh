#!/usr/bin/env bash
# Loads a report's index.html in headless Chromium (Debian's `chromium`) and
# fails when the page writes to the console (an error or anything else), makes any network request, or
# lacks the ledger table or the charts after its script ran. Writes a
# screenshot beside the page (index.png, not committed) to look at.
#
# Then loads a few study pages (OUT/<study>/index.html, where present) and
# fails when one writes to the console, is wider than its window, or has a
# chart (a file of its folder, linked) that did not draw.
#
#   scripts/check-report.sh [OUT]      (default: reports)
set -euo pipefail
out="${1:-reports}"
page="$(cd "$out" && pwd)/index.html"
[ -f "$page" ] || { echo "check-report: no $page" >&2; exit 2; }
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "check-report: chromium is not installed" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# the flags keep Chromium's own background services quiet on a closed network
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --disable-default-apps --disable-extensions --enable-logging=stderr --v=0
       --window-size=1400,1800)
"$browser" "${flags[@]}" --user-data-dir="$work/p1" --log-net-log="$work/net.json" \
    --screenshot="$out/index.png" "file://$page" >"$work/shot.out" 2>"$work/shot.err"
"$browser" "${flags[@]}" --user-data-dir="$work/p2" --dump-dom "file://$page" \
    >"$work/dom.html" 2>"$work/dom.err"
python3 - "$work" "$out/index.png" <<'PY'
import json, re, sys, os
work, shot = sys.argv[1], sys.argv[2]
problems = []
# the page writes nothing to the console: Chromium logs every message at INFO,
# so an uncaught error and console.error/warn/log all count
for name in ("shot.err", "dom.err"):
    for line in open(os.path.join(work, name), errors="replace"):
        if ":CONSOLE" in line:
            problems.append("console: " + line.strip())
# every request the page started (Chromium's own services have no initiator origin)
text = open(os.path.join(work, "net.json")).read().rstrip()
if not text.endswith("}"):
    text = text.rstrip(",") + "]}"
log = json.loads(text)
names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
for e in log.get("events", []):
    if names.get(e["type"]) != "URL_REQUEST_START_JOB":
        continue
    p = e.get("params", {})
    if p.get("initiator", "not an origin") != "not an origin":
        problems.append("request: %s (from %s)" % (p.get("url"), p.get("initiator")))
dom = open(os.path.join(work, "dom.html"), errors="replace").read()
rows = len(re.findall(r"<tr data-verdict=", dom))
charts = dom.count("<svg")
if rows == 0:
    problems.append("no ledger rows in the rendered page")
if charts == 0:
    problems.append("no charts in the rendered page")
if "claims shown" not in dom:
    problems.append("the ledger filter did not run")
width = re.search(r'data-page-width="(\d+)"', dom)
if width is None:
    problems.append("the page did not measure its width")
elif int(width.group(1)) > 1400:
    problems.append("the page is %s px wide in a 1,400 px window (a horizontal scrollbar)" % width.group(1))
# a newcomer sees a chart without scrolling: the first one starts in the
# first screen of a 1,400 x 900 window
top = re.search(r'data-first-chart-top="(\d+)"', dom)
if top is None:
    problems.append("the page has no chart to measure")
elif int(top.group(1)) > 600:
    problems.append("the first chart starts %s px down, below the first screen (600 px)" % top.group(1))
if not os.path.exists(shot) or os.path.getsize(shot) < 10_000:
    problems.append("no screenshot")
for p in problems:
    print("check-report:", p, file=sys.stderr)
if problems:
    sys.exit(1)
height = re.search(r'data-page-height="(\d+)"', dom)
print("check-report: %d ledger rows, %d charts, %s px wide at 1,400 (%s px tall), first chart %s px down, no console errors, no requests; screenshot %s" % (rows, charts, width.group(1), height.group(1) if height else "?", top.group(1), shot))
PY
# study pages: the ones with the widest charts and tables
for study in filter_frontier cardinality_frontier bloom_fpr; do
    sp="$(cd "$out" && pwd)/$study/index.html"
    [ -f "$sp" ] || continue
    "$browser" "${flags[@]}" --user-data-dir="$work/p-$study" --dump-dom "file://$sp" \
        >"$work/$study.html" 2>"$work/$study.err"
    python3 - "$work/$study.html" "$work/$study.err" "$study" <<'PY'
import re, sys
dom, err, study = open(sys.argv[1], errors="replace").read(), sys.argv[2], sys.argv[3]
problems = ["console: " + l.strip() for l in open(err, errors="replace") if ":CONSOLE" in l]
width = re.search(r'data-page-width="(\d+)"', dom)
if width is None:
    problems.append("the page did not measure its width")
elif int(width.group(1)) > 1400:
    problems.append("%s px wide in a 1,400 px window" % width.group(1))
charts = len(re.findall(r'<img class="chart"', dom))
drawn = re.search(r'data-charts-drawn="(\d+)"', dom)
if charts == 0:
    problems.append("no charts")
elif drawn is None or int(drawn.group(1)) != charts:
    problems.append("%s of %d charts drew (a chart file is missing or unreadable)" % (drawn.group(1) if drawn else "none", charts))
for p in problems:
    print("check-report: %s/index.html: %s" % (study, p), file=sys.stderr)
if problems:
    sys.exit(1)
print("check-report: %s/index.html: %d charts drawn, %s px wide at 1,400" % (study, charts, width.group(1)))
PY
done
