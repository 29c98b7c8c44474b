"""The link process that holds the grader's connection to a kernel (nbcourse/grading/link.py).

Its string cutter is checked on JSON texts fed in arbitrary chunks; the process itself is
run against a ZeroMQ ROUTER socket standing in for a kernel's shell socket: a reply with a
50 MB string comes back cut and readable, a stream of unsigned messages and one endless
message end it as a flood.
"""

import hashlib
import hmac
import json
import os
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nbcourse.grading import link
from nbcourse.grading.sandbox import LINK_SOURCE

MARK = " more bytes cut by the grader]"


def cut(text, limit, sizes):
    """``text`` (bytes) through a Cutter, in chunks of the given sizes (cycled)."""
    cutter = link.Cutter(limit)
    pos, i = 0, 0
    while pos < len(text):
        size = sizes[i % len(sizes)]
        cutter.feed(text[pos:pos + size])
        pos, i = pos + size, i + 1
    return cutter.result()


def same_but_cut(original, copy, keep, ascii_only):
    """``copy`` equals ``original`` except that strings longer than ``keep`` bytes (as
    encoded) may be cut: a prefix of whole characters, then the note."""
    if isinstance(original, str):
        if copy == original:
            return True
        head, sep, tail = copy.rpartition("... [")
        return bool(sep) and tail.endswith(MARK) and original.startswith(head) \
            and len(json.dumps(original, ensure_ascii=ascii_only).encode()) > keep
    if isinstance(original, list):
        return isinstance(copy, list) and len(copy) == len(original) and all(
            same_but_cut(a, b, keep, ascii_only) for a, b in zip(original, copy, strict=True))
    if isinstance(original, dict):
        return isinstance(copy, dict) and list(copy) == list(original) and all(
            same_but_cut(original[k], copy[k], keep, ascii_only) for k in original)
    return copy == original


chars = st.characters(codec="utf-8", exclude_categories=["Cs"])
# strings of any characters, and long runs of one (é, an emoji, a quote) that cuts land in
texts = st.text(chars, max_size=3000) | st.builds(lambda c, n: c * n, chars, st.integers(1, 3000))
values = st.recursive(st.none() | st.booleans() | st.integers() | texts,
                      lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=20), inner, max_size=4),
                      max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(values, st.lists(st.integers(1, 40), min_size=1, max_size=5), st.booleans())
@example(["\U0001f600" * 3000, "\U0001f600" * 3000], [7], True)  # cut inside a surrogate pair
@example(["é" * 3000, "€" * 3000], [5], False)  # cut inside a UTF-8 sequence
@example(['"\\' * 3000], [3], False)  # cut inside an escape
def test_cut_copy_is_json_that_keeps_every_string_start(value, sizes, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only).encode()
    small = cut(text, 10**6, sizes)
    assert small == text  # nothing to cut
    limit = link.ROOM + 2000
    copy = cut(text, limit, sizes)
    if copy is None:  # even cut, more than the limit (structure, not long strings)
        return
    assert len(copy) <= limit
    assert same_but_cut(value, json.loads(copy), link.MIN_KEEP, ascii_only)


def test_a_50_mb_string_keeps_its_start_and_says_how_much_was_cut():
    text = json.dumps({"status": "error", "ename": "ValueError", "evalue": "é" + "e" * 50_000_000,
                       "traceback": ["\u001b[31mValueError\u001b[39m: " + "\\\"" * 100_000]},
                      ensure_ascii=False).encode()
    copy = cut(text, 10 * 2**20, [2**20])
    assert len(copy) <= 10 * 2**20
    reply = json.loads(copy)
    assert reply["status"] == "error" and reply["ename"] == "ValueError"
    assert reply["evalue"].startswith("éeee") and reply["evalue"].endswith(MARK)
    cut_bytes = int(reply["evalue"].rpartition("[")[2].split()[0])
    kept = reply["evalue"].rpartition("... [")[0]
    assert len(kept.encode()) + cut_bytes == 50_000_002  # é is two bytes
    assert reply["traceback"][0].startswith("\u001b[31mValueError")


def test_endless_structure_is_refused():
    assert cut(b"[" + b"1," * 2_000_000 + b"1]", 10**6, [65536]) is None


# --- the process, against a stand-in for the kernel's shell socket ------------------------


class FakeKernel:
    """A ROUTER socket where a kernel's shell socket would be, and a link process to it."""

    def __init__(self, folder, max_bytes=32 * 10 * 2**20):
        import zmq

        self.key = os.urandom(16).hex()
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        path = str(folder / "shell")
        self.sock.bind(f"ipc://{path}")
        config = {"path": path, "key": self.key, "max_message": 10 * 2**20,
                  "max_bytes": max_bytes, "max_strays": 1000, "memory_mb": 64,
                  "cpu_seconds": 60, "parent": os.getpid()}
        self.link = subprocess.Popen([sys.executable, "-I", "-c", LINK_SOURCE],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.link.stdin.write(json.dumps(config).encode() + b"\n")
        self.ident = None

    def request(self, msg_id, timeout=30):
        self.link.stdin.write(json.dumps({"msg_type": "execute_request", "content": {},
                                          "msg_id": msg_id, "timeout": timeout}).encode()
                              + b"\n")
        self.link.stdin.flush()
        frames = self.sock.recv_multipart()
        self.ident = frames[0]
        return json.loads(frames[frames.index(b"<IDS|MSG>") + 2])  # the request's header

    def reply(self, parent, content):
        parts = [json.dumps({"msg_id": "r", "msg_type": "execute_reply"}).encode(),
                 json.dumps(parent).encode(), b"{}", content]
        mac = hmac.new(self.key.encode(), digestmod=hashlib.sha256)
        for part in parts:
            mac.update(part)
        self.sock.send_multipart([self.ident, b"<IDS|MSG>", mac.hexdigest().encode(), *parts])

    def answer(self):
        head = json.loads(self.link.stdout.readline())
        return head, self.link.stdout.read(head["reply"]) if "reply" in head else None

    def close(self):
        self.link.kill()
        self.link.wait()
        self.sock.close()
        self.ctx.term()


@pytest.fixture
def kernel(tmp_path):
    k = FakeKernel(tmp_path)
    yield k
    k.close()


def _peak_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024


def test_a_huge_reply_comes_back_cut(kernel):
    parent = kernel.request("a1")
    kernel.reply(parent, json.dumps({"status": "error", "ename": "ValueError",
                                     "evalue": "e" * 50_000_000}).encode())
    head, data = kernel.answer()
    assert head["msg_id"] == "a1" and len(data) <= 10 * 2**20
    reply = json.loads(data)
    assert reply["evalue"].startswith("eeee") and reply["evalue"].endswith(MARK)
    assert _peak_mib(kernel.link.pid) < 100  # the message was 50 MB
    parent = kernel.request("a2")  # and the link goes on
    kernel.reply(parent, b'{"status": "ok"}')
    assert kernel.answer() == ({"msg_id": "a2", "reply": 16}, b'{"status": "ok"}')


def test_a_reply_signed_with_another_key_is_not_an_answer(kernel):
    parent = kernel.request("a1", timeout=1)
    kernel.key = "0" * 32
    kernel.reply(parent, b'{"status": "ok"}')
    assert kernel.answer() == ({"msg_id": "a1", "timeout": True}, None)


@pytest.mark.parametrize("parts", [1, 100], ids=["many-messages", "one-endless-message"])
def test_a_flood_ends_the_link(parts, tmp_path):
    kernel = FakeKernel(tmp_path, max_bytes=64 * 2**20)
    try:
        kernel.request("a1")
        blob = b"x" * 2**20
        for _ in range(100 // parts):
            kernel.sock.send_multipart([kernel.ident] + [blob] * parts)
        head, _ = kernel.answer()
        assert "more than the limit of all its replies" in head["flood"]
        assert kernel.link.wait(timeout=60) == 3
    finally:
        kernel.close()


def test_a_closed_connection_ends_the_link(kernel):
    kernel.request("a1")
    kernel.sock.close()
    head = kernel.answer()[0]
    assert head == {"disconnected": "the kernel closed its connection to the grader"}
