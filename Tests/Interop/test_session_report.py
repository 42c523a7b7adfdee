"""`noisetag session report SESSION --out FILE`: one self-contained HTML page
on a session, checked in a real headless browser.

- A real headless session (Examples/protocols/demo-session.json, conftest's
  `demo_session`) is reported on; Debian's chromium renders the page with no network (a network namespace
  of its own when root, else every host name mapped to nothing) and its net
  log shows no request the page made beyond what chromium makes for an empty
  page (a page with an external image and style sheet shows that the check
  sees them); the DOM after rendering has the title, the participant, a row
  per step and every chart with its data paths; a screenshot is taken.
- Bad input: a missing folder, a folder that is no session, a broken
  steps.jsonl line, an unwritable --out: one line, exit 1, no crash.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def session(demo_session):
    """The demo protocol's session folder (conftest: a real headless run, killed mid-step and resumed)."""
    assert demo_session.resumed.returncode == 0, demo_session.resumed.stdout.decode()[-3000:]
    return demo_session.folder


@pytest.fixture(scope="module")
def report(noisetag_bin, session, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    run = subprocess.run([noisetag_bin, "session", "report", session, "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert run.returncode == 0, run.stdout.decode() + run.stderr.decode()
    assert run.stdout.decode().startswith("report: %s (6 steps)" % out)
    return out


def chromium(*args, timeout=90):
    """Runs headless chromium with no network and its own throw-away profile;
    returns (stdout, the URLs in its net log)."""
    if CHROMIUM is None:
        pytest.fail("chromium is not installed (make test installs it: apt-get install -y chromium)")
    profile = tempfile.mkdtemp(prefix="nt-chromium-")
    net_log = os.path.join(profile, "net-log.json")
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + profile,
               "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-default-apps", "--log-net-log=" + net_log]
    if os.geteuid() == 0 and shutil.which("unshare"):
        command = ["unshare", "-n"] + command     # a network namespace with nothing in it
    else:
        command.append("--host-resolver-rules=MAP * ~NOTFOUND")
    try:
        run = subprocess.run(command + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        assert run.returncode == 0, run.stderr.decode()[-2000:]
        with open(net_log, errors="replace") as f:
            urls = set(re.findall(r'"url":"([^"]+)"', f.read()))
        return run.stdout.decode(), urls
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def hosts(urls):
    return {re.sub(r"^[a-z]+://([^/:?]+).*", r"\1", url) for url in urls if not url.startswith(("file:", "data:", "about:", "chrome"))}


def test_the_page_is_one_file_that_fetches_nothing(report, tmp_path):
    html = report.read_text()
    for reference in ["http://", "https://", "<script", "<link", "@import", "<img", "<iframe", "src="]:
        assert reference not in html, reference
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", html))
    # Rendered with no network: beyond chromium's own calls home (made for an empty page too), no request.
    empty = tmp_path / "empty.html"
    empty.write_text("<!DOCTYPE html><title>empty</title>")
    _, baseline = chromium("--dump-dom", empty.as_uri())
    _, urls = chromium("--dump-dom", report.as_uri())
    assert hosts(urls) - hosts(baseline) == set(), urls
    # The check sees a page's requests.
    leaky = tmp_path / "leaky.html"
    leaky.write_text('<!DOCTYPE html><img src="https://example.org/x.png"><link rel="stylesheet" href="http://example.com/a.css">')
    _, urls = chromium("--dump-dom", leaky.as_uri())
    assert {"example.org", "example.com"} <= hosts(urls) - hosts(baseline), urls


def test_the_rendered_page_shows_the_session_the_steps_and_every_chart(report, session, tmp_path):
    dom, _ = chromium("--dump-dom", report.as_uri())
    assert "<title>Session report: P01, Demo session</title>" in dom
    assert "<dd>P01</dd>" in dom and "demo-session.json" in dom and "simulated (headless run" in dom
    # The decoder's settings the session ran on (conftest's DEMO_SESSION_DECODER_SETTINGS), by what differs.
    assert "<dd>predictionInterval 0.2, idlePressesPerMinute 0.05 (the rest as default)</dd>" in dom, dom[:3000]
    steps = re.search(r'<table class="steps">.*?<tbody>(.*?)</tbody>', dom, re.S).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", steps, re.S)
    assert len(rows) == 6
    kinds = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[2] for row in rows]
    assert kinds == ["instructions", "signalCheck", "calibration", "copySpell", "noControl", "questionnaire"]
    assert re.search(r"typed “HI” of “HI”, \d+ of \d+ right", steps)
    # Spelling: an ITR in bits/min for the copy step.
    itr = re.search(r'<td class="num strong">(\d+\.\d)</td></tr>', dom.split('id="spelling"')[1])
    assert itr and float(itr.group(1)) > 0
    # Every chart: histogram, decoding curve, kernels, signal quality, each an <svg> with data paths.
    charts = re.findall(r"<svg.*?</svg>", dom, re.S)
    assert len(charts) == 4, len(charts)
    ids = [re.search(r'<clipPath id="([^"]+)-plot"', chart).group(1) for chart in charts]
    assert ids == ["selection-times", "curve-3", "kernels-3", "signal"]
    for name, chart in zip(ids, charts):
        paths = re.findall(r'<path class="(series|bars)" d="([^"]+)"', chart)
        assert paths, name
        assert all(len(re.findall(r"[MLV]", d)) >= 2 for _, d in paths), name
    assert len(re.findall(r'class="series"', charts[3])) == 8          # one line per channel
    assert len(re.findall(r'class="span"', charts[3])) == 6            # the steps shaded
    assert len(re.findall(r'class="series"', charts[2])) >= 2          # rise and fall
    # The calibration: the re-fit's choice beside what the live decoder chose during the session (its CALIBRATIONRESULT).
    calibration = dom.split('id="calibration"')[1]
    assert "Fitted again here on that dataset, the settings selection chose <strong>" in calibration
    assert "The live decoder chose the same." in calibration or "During the session the live decoder chose <strong>" in calibration
    assert "distinct codes shown" in calibration and "<em>refe</em>" in calibration
    # No part of this session is missing, and the answers are beside their questions.
    assert 'class="absent"' not in dom
    assert "How comfortable was the flicker?" in dom and "Would you use this again?" in dom


def test_a_screenshot_of_the_report(report, tmp_path):
    shot = tmp_path / "report.png"
    chromium("--screenshot=" + str(shot), "--window-size=1200,3000", report.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1200, 3000)
    keep = os.environ.get("NOISETAG_REPORT_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)


def bad(noisetag_bin, *args):
    run = subprocess.run([noisetag_bin, "session", "report"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         timeout=120)
    err = run.stderr.decode()
    assert run.returncode == 1, (run.returncode, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Fatal error" not in err and "Stack dump" not in err
    return err


def test_bad_input_is_one_line_and_exit_1(noisetag_bin, session, tmp_path):
    assert "no such folder" in bad(noisetag_bin, str(tmp_path / "nowhere"), "--out", str(tmp_path / "r.html"))
    plain = tmp_path / "plain"
    plain.mkdir()
    assert "not a session folder" in bad(noisetag_bin, str(plain), "--out", str(tmp_path / "r.html"))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert "not a session folder" in bad(noisetag_bin, str(a_file), "--out", str(tmp_path / "r.html"))
    # A broken line in the middle of steps.jsonl names the file and line; a cut last line is only left out.
    copy = tmp_path / "copy"
    shutil.copytree(session, copy, ignore=shutil.ignore_patterns("decoder-calibrations", "*training*"))
    with open(copy / "steps.jsonl") as f:
        lines = f.read().split("\n")
    with open(copy / "steps.jsonl", "w") as f:
        f.write("\n".join(lines[:-1]) + "\n" + '{"step": 7, "ki')
    ok = subprocess.run([noisetag_bin, "session", "report", str(copy), "--out", str(tmp_path / "cut.html"), "--skip-calibration"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert ok.returncode == 0 and "(6 steps)" in ok.stdout.decode(), ok.stderr.decode()
    with open(copy / "steps.jsonl", "w") as f:
        f.write(lines[0] + "\n" + '{"step": 2, "kind": ' + "\n" + "\n".join(lines[1:]))
    err = bad(noisetag_bin, str(copy), "--out", str(tmp_path / "r.html"))
    assert "steps.jsonl:2: not a step result" in err, err
    # An --out that cannot be written: in a missing folder, or a folder itself.
    assert "cannot be written (no folder %s)" % (tmp_path / "missing") in bad(noisetag_bin, session, "--out", str(tmp_path / "missing" / "r.html"), "--skip-calibration")
    assert "cannot be written" in bad(noisetag_bin, session, "--out", str(tmp_path), "--skip-calibration")
    assert not os.path.exists(os.path.join(session, "report.html"))
