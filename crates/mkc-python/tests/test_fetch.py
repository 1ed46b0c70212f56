"""``mkc.datasets.fetch`` against an HTTP server on 127.0.0.1 that the tests start (as
crates/mkc-data/tests/fetch.rs does for the Rust library): a good download, a wrong
checksum, a connection dropped half-way (resumed), error pages, a file already present,
two concurrent fetches of one file, a manual file, bad options. Nothing leaves the
machine; every socket has a timeout and the server stops with its test."""

import hashlib
import http.server
import io
import threading
from contextlib import redirect_stderr
from pathlib import Path

import pytest

import mkc

REL = "web/toy.csv"
# The registry fixture shared with mkc-data's fetch tests.
FIXTURE = Path(__file__).resolve().parents[2] / "mkc-data" / "tests" / "fetch_support" / "toy_registry.toml"
TIMEOUT = 5.0
HTML = b"<!DOCTYPE html><html><head><title>Oops</title></head><body>went wrong</body></html>"


def fixture(rows=20_000):
    """A CSV body (two features and a label per row), a few hundred kB."""
    return "".join(f"{i % 97}.{i % 13},{i * 7 % 101},{i % 2}\n" for i in range(rows)).encode()


BODY = fixture()
SHA = hashlib.sha256(BODY).hexdigest()


class Server:
    """Serves BODY at any path in one of the modes ``normal``, ``wrong`` (other bytes
    of the same length), ``drop`` (the first response announces the whole body, sends
    half and closes), ``e500``, ``html`` (a web page with 200) or ``slow`` (a pause
    before the body); records the ``Range`` header of every request."""

    def __init__(self, mode):
        self.mode = mode
        self.ranges = []
        self.lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            timeout = TIMEOUT

            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.serve(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def url(self, path):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{path}"

    def requests(self):
        with self.lock:
            return len(self.ranges)

    def send(self, h, status, body, ctype="application/octet-stream", headers=()):
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            h.send_header(k, v)
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(body)

    def serve(self, h):
        rng = h.headers.get("Range")
        with self.lock:
            self.ranges.append(rng)
            nth = len(self.ranges)
        mode = self.mode
        if mode == "e500":
            return self.send(h, 500, HTML, "text/html; charset=utf-8")
        if mode == "html":
            return self.send(h, 200, HTML, "text/html; charset=utf-8")
        if mode == "drop" and nth == 1:
            h.send_response(200)
            h.send_header("Content-Length", str(len(BODY)))
            h.send_header("Connection", "close")
            h.end_headers()
            h.wfile.write(BODY[: len(BODY) // 2])
            h.wfile.flush()
            h.close_connection = True
            return
        if mode == "slow":
            threading.Event().wait(0.3)
        body = bytes(b ^ 0x20 for b in BODY) if mode == "wrong" else BODY
        if rng and rng.startswith("bytes=") and rng.endswith("-"):
            n = int(rng[len("bytes=") : -1])
            cr = ("Content-Range", f"bytes {n}-{len(body) - 1}/{len(body)}")
            return self.send(h, 206, body[n:], headers=[cr])
        return self.send(h, 200, body)

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(TIMEOUT)


@pytest.fixture()
def serve():
    """``serve(mode)`` starts a server; all are stopped after the test."""
    servers = []

    def start(mode="normal"):
        s = Server(mode)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def write_registry(tmp_path, source, sha=SHA, size=len(BODY)):
    """A registry file with one dataset ``toy`` (a CSV, label last) whose file
    ``web/toy.csv`` comes from ``source`` (the body of an inline TOML table): mkc-data's
    fixture ``toy_registry.toml``, shared with its Rust fetch tests."""
    p = tmp_path / "registry.toml"
    downloads = f'"{REL}" = {{ size = {size}, {source} }}'
    p.write_text(FIXTURE.read_text().replace("@SHA@", sha).replace("@DOWNLOADS@", downloads))
    return p


def setup(tmp_path, server):
    reg = write_registry(tmp_path, f'url = "{server.url("files/toy.csv")}"')
    data = tmp_path / "data"
    data.mkdir()
    return reg, data


def fetch(reg, data, **kw):
    opts = dict(attempts=3, backoff=0.01, max_backoff=0.04, timeout=TIMEOUT, lock_wait=30.0)
    opts.update(kw)
    return mkc.datasets.fetch("toy", data, registry=reg, **opts)


def left(data):
    """The files under data/web (no .part or .lock may stay)."""
    d = Path(data) / "web"
    return sorted(p.name for p in d.iterdir()) if d.is_dir() else []


def test_a_good_download_is_verified_and_a_second_fetch_makes_no_request(tmp_path, serve):
    server = serve()
    reg, data = setup(tmp_path, server)
    (r,) = fetch(reg, data)
    assert (r.status, r.file, r.dataset) == ("fetched", REL, "toy")
    assert r.source == server.url("files/toy.csv") and r.resumed_from == 0
    assert r.error is None and r.summary.startswith("fetched  web/toy.csv")
    assert Path(r.path) == data / REL and (data / REL).read_bytes() == BODY
    assert (r.size, r.sha256) == (len(BODY), SHA)
    assert server.ranges == [None] and left(data) == ["toy.csv"]
    (again,) = fetch(reg, data)
    assert again.status == "present" and server.requests() == 1


def test_a_wrong_checksum_raises_naming_both_hashes_and_leaves_nothing(tmp_path, serve):
    server = serve("wrong")
    reg, data = setup(tmp_path, server)
    wrong = hashlib.sha256(bytes(b ^ 0x20 for b in BODY)).hexdigest()
    with pytest.raises(ValueError) as e:
        fetch(reg, data)
    msg = str(e.value)
    assert f"sha256 mismatch: expected {SHA}, found {wrong}" in msg and REL in msg, msg
    assert server.requests() == 1, "a checksum mismatch is not retried"
    assert left(data) == []
    # errors="report": the same exception in the report, nothing raised
    (r,) = fetch(reg, data, errors="report")
    assert r.status == "failed" and isinstance(r.error, ValueError)
    assert str(r.error) == msg and r.summary.startswith("failed   web/toy.csv")


def test_a_connection_dropped_half_way_is_resumed_with_a_range_request(tmp_path, serve):
    server = serve("drop")
    reg, data = setup(tmp_path, server)
    (r,) = fetch(reg, data)
    assert r.status == "fetched", r.summary
    assert (data / REL).read_bytes() == BODY
    assert server.ranges == [None, f"bytes={len(BODY) // 2}-"]
    assert left(data) == ["toy.csv"]


def test_an_earlier_part_file_is_resumed(tmp_path, serve):
    server = serve()
    reg, data = setup(tmp_path, server)
    (data / "web").mkdir()
    (data / "web" / "toy.csv.part").write_bytes(BODY[:12345])
    (r,) = fetch(reg, data)
    assert (r.status, r.resumed_from) == ("fetched", 12345)
    assert server.ranges == ["bytes=12345-"] and (data / REL).read_bytes() == BODY


def test_error_pages_are_not_taken_for_the_file(tmp_path, serve):
    server = serve("e500")
    reg, data = setup(tmp_path, server)
    with pytest.raises(OSError) as e:
        fetch(reg, data)
    assert "HTTP 500" in str(e.value) and server.url("files/toy.csv") in str(e.value)
    assert server.requests() == 3, "retried `attempts` times"
    assert left(data) == []
    server = serve("html")
    sub = tmp_path / "html"
    sub.mkdir()
    reg, data = setup(sub, server)
    (r,) = fetch(reg, data, errors="report")
    assert r.status == "failed" and "web page" in str(r.error), r.summary
    assert server.requests() == 1 and left(data) == []


def test_two_concurrent_fetches_download_once_and_both_succeed(tmp_path, serve):
    server = serve("slow")
    reg, data = setup(tmp_path, server)
    out = [None, None]

    def one(i):
        out[i] = fetch(reg, data)[0].status

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(out) == ["fetched", "present"], out
    assert server.requests() == 1 and (data / REL).read_bytes() == BODY
    assert left(data) == ["toy.csv"]


def test_a_local_copy_is_used_before_the_network(tmp_path, serve):
    server = serve()
    reg, data = setup(tmp_path, server)
    copies = tmp_path / "copies"
    (copies / "web").mkdir(parents=True)
    (copies / REL).write_bytes(BODY)
    (r,) = fetch(reg, data, local_copies=[copies])
    assert (r.status, Path(r.source)) == ("copied", copies)
    assert server.requests() == 0 and (data / REL).read_bytes() == BODY


def test_a_file_without_a_public_download_is_reported_not_raised(tmp_path):
    reg = tmp_path / "registry.toml"
    reg.write_text(
        write_registry(tmp_path, 'url = "x"')
        .read_text()
        .replace(f'{{ size = {len(BODY)}, url = "x" }}', '{ manual = "ask the authors; put it at web/toy.csv" }')
    )
    (r,) = mkc.datasets.fetch("toy", tmp_path / "data", registry=reg)
    assert r.status == "manual" and r.manual == "ask the authors; put it at web/toy.csv"
    assert r.summary.startswith("manual   web/toy.csv") and r.error is not None


def test_verbose_prints_the_commands_line_per_file(tmp_path, serve):
    server = serve()
    reg, data = setup(tmp_path, server)
    err = io.StringIO()
    with redirect_stderr(err):
        (r,) = fetch(reg, data, verbose=True)
    assert err.getvalue() == r.summary + "\n"


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"attempts": 0}, "attempts"),
        ({"attempts": -1}, "attempts"),
        ({"attempts": 21}, "attempts"),
        ({"timeout": 0.0}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"backoff": -1.0}, "backoff"),
        ({"backoff": 5.0, "max_backoff": 1.0}, "backoff"),
        ({"lock_wait": float("inf")}, "lock_wait"),
    ],
)
def test_bad_options_raise_value_error_naming_them(tmp_path, kw, name):
    reg = write_registry(tmp_path, 'url = "http://127.0.0.1:9/toy.csv"')
    with pytest.raises(ValueError, match=f"`{name}`"):
        fetch(reg, tmp_path / "data", **kw)
    assert not (tmp_path / "data").exists(), "nothing is made before the options pass"


def test_bad_names_and_arguments_raise_before_fetching(tmp_path):
    reg = write_registry(tmp_path, 'url = "http://127.0.0.1:9/toy.csv"')
    with pytest.raises(ValueError, match="no dataset named"):
        mkc.datasets.fetch([], tmp_path, registry=reg)
    with pytest.raises(ValueError, match="no-such-set"):
        mkc.datasets.fetch("no-such-set", tmp_path, registry=reg)
    with pytest.raises(ValueError, match="errors"):
        mkc.datasets.fetch("toy", tmp_path, registry=reg, errors="ignore")
    with pytest.raises(FileNotFoundError):
        mkc.datasets.fetch("toy", tmp_path, registry=tmp_path / "none.toml")
    # the built-in registry: an unknown name is the same error
    with pytest.raises(ValueError, match="no-such-set"):
        mkc.datasets.fetch("no-such-set", tmp_path)
