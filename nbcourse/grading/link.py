"""The grader's connection to one kernel, in a process of its own with hard limits.

The grader passes this file's *text* (``python -I -S -c SOURCE``: the standard library
only). Everything a kernel sends arrives here, never in the grading process, and is read as
a stream, never whole: this process speaks ZeroMQ's wire protocol (ZMTP 3.0, NULL mechanism,
as a DEALER) on the kernel's shell socket itself, in chunks, so what it holds does not grow
with what the kernel sends. Of a reply it keeps the signature and parent frames (each at
most ``MAX_HEADER`` bytes) and a copy of the content frame in which every JSON string that
does not fit is cut: each keeps its first bytes (at least ``MIN_KEEP``, in all at most
``max_message`` bytes) and ends with a note of how many bytes were cut. So a cell that
raises an exception with a message of 50 MB is answered with a readable, shortened error;
the signature is checked over every byte received. Address space and CPU time are capped by
resource limits set before anything is read. A kernel that sends more than the limit of all
its bytes, or too many messages that answer nothing, or bytes that are not ZMTP, ends its
submission (a flood).

Protocol, on stdin and stdout: the first line of stdin is a JSON config; then each line of
stdin is a request ``{"msg_type", "content", "msg_id", "timeout"}`` (send it, then wait for
its reply) or ``{"msg_id", "timeout"}`` (wait again). For each, one line goes to stdout:
``{"msg_id", "reply": n}`` followed by the ``n`` bytes of the reply's content (a signed
message whose parent is the request, at most ``max_message`` bytes once cut),
``{"msg_id", "timeout": true}``, or ``{"flood": reason}`` or ``{"disconnected": reason}``
(the kernel closed the connection: it died, or closed its socket) after which this process
exits. It imports nothing from nbcourse.
"""

import hashlib
import hmac
import json
import os
import re
import resource
import select
import socket
import struct
import sys
import time

__all__ = ["MIN_KEEP", "ROOM", "Cutter", "Link", "Message", "main"]

DELIMITER = b"<IDS|MSG>"
MAX_FRAMES = 64  # frames of one message before the delimiter, and buffers after the content
MAX_HEADER = 65536  # bytes kept of a signature, parent or command frame
MIN_KEEP = 1024  # bytes every string of a reply keeps, however long the reply
ROOM = 65536  # output left free, when strings are cut, for what follows them
CHUNK = 1 << 20  # bytes received at once
MORE, LONG, COMMAND = 1, 2, 4
# the body of a JSON string, token by token (the keeping pass: never ends inside an escape
# or between the two halves of a surrogate pair) and escape-blind but quote-exact (the
# skipping pass); both possessive, so linear in C
KEEP = re.compile(rb'(?:[^"\\]++|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}'
                  rb'|\\u(?![dD][89abAB])[0-9a-fA-F]{4}|\\[^u])*+', re.S)
SKIP = re.compile(rb'(?:[^"\\]++|\\.)*+', re.S)


def _limit(config):
    mib = 1024 * 1024
    with open("/proc/self/status") as f:
        size = next(int(line.split()[1]) for line in f if line.startswith("VmSize:")) * 1024
    memory = size + config["memory_mb"] * mib
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(config["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Cutter:
    """A copy of a JSON text, fed in chunks, in which each string keeps at most what fits:
    its first bytes (cut between two characters, never inside an escape or a UTF-8
    sequence; at least ``MIN_KEEP``, in all no more than ``limit`` bytes of output) and a
    note of the bytes cut. Memory is bounded by ``limit``, time is linear in the input.
    ``result()`` is the copy, or None when even cut it exceeds ``limit`` (a reply of
    endless structure rather than long strings) or is not whole."""

    def __init__(self, limit):
        self.limit = limit
        self.out = bytearray()
        self.string = False  # inside a string
        self.keep = 0  # bytes the current string may still keep
        self.cutting = False  # the current string keeps no more
        self.cut = 0  # bytes of the current string cut so far
        self.carry = b""  # the start of an escape split between two chunks
        self.over = False

    def feed(self, data):
        if self.over:
            return
        if self.carry:
            data, self.carry = self.carry + data, b""
        pos, end = 0, len(data)
        while pos < end:
            if not self.string:
                quote = data.find(b'"', pos)
                stop = end if quote < 0 else quote + 1
                self.out += data[pos:stop]
                pos = stop
                if self._full():
                    return
                if quote >= 0:
                    self.string, self.cutting, self.cut = True, False, 0
                    self.keep = max(MIN_KEEP, self.limit - ROOM - len(self.out))
            elif not self.cutting:
                window = min(end, pos + self.keep)
                stop = KEEP.match(data, pos, window).end()
                self.out += data[pos:stop]
                self.keep -= stop - pos
                pos = stop
                if pos == end:
                    break
                if data[pos] == ord('"'):
                    self._close()
                    pos += 1
                elif window == end and end - pos < 12:
                    self.carry = data[pos:]  # an escape that the next chunk ends
                    break
                else:  # the string keeps no more: cut the rest
                    self.cutting = True
            else:
                quote = data.find(b'"', pos)
                stop = end if quote < 0 else quote
                if data.find(b"\\", pos, stop) >= 0:  # escapes: find the quote that ends it
                    stop = SKIP.match(data, pos).end()
                self.cut += stop - pos
                pos = stop
                if pos == end:
                    break
                if data[pos] == ord('"'):
                    self._close()
                    pos += 1
                else:  # a backslash, the last byte: the next chunk ends the escape
                    self.carry = data[pos:]
                    break
        self._full()

    def _full(self):
        if len(self.out) > self.limit:
            self.over, self.out = True, bytearray()
        return self.over

    def _close(self):
        if self.cutting:
            del self.out[_whole_characters(self.out):]
            self.out += b"... [%d more bytes cut by the grader]" % self.cut
        self.out += b'"'
        self.string = False

    def result(self):
        if self.over or self.string or self.carry:
            return None
        return bytes(self.out)


def _whole_characters(out):
    """The length of ``out`` without an incomplete UTF-8 sequence at its end."""
    n = len(out)
    i = n - 1
    while i >= max(0, n - 4) and 0x80 <= out[i] < 0xC0:
        i -= 1
    if i >= 0 and out[i] >= 0xC0:
        need = 2 if out[i] < 0xE0 else 3 if out[i] < 0xF0 else 4
        if n - i < need:
            return i
    return n


class Message:
    """One message as its frames arrive: identities, the delimiter, the signature, the
    signed frames (hashed as they come), the content (through a :class:`Cutter`) and
    buffers. Holds at most the signature, the parent (``MAX_HEADER`` each) and the cut
    content."""

    def __init__(self, key, limit):
        self.mac = hmac.new(key, digestmod=hashlib.sha256)
        self.limit = limit
        self.index = None  # frame index after the delimiter; None before it
        self.before = 0  # frames before the delimiter
        self.kept = bytearray()  # the current frame, if it is one this keeps
        self.signature = self.parent = None
        self.content = None
        self.bad = False

    def begin(self):
        self.kept = bytearray()
        if self.index is None:
            self.before += 1
            self.bad = self.bad or self.before > MAX_FRAMES
        elif self.index == 4:
            self.content = Cutter(self.limit)
        elif self.index > 4 + MAX_FRAMES:
            self.bad = True

    def data(self, chunk):
        i = self.index
        if i is None:
            if len(self.kept) <= len(DELIMITER):
                self.kept += chunk[:len(DELIMITER) + 1]
            return
        if 1 <= i <= 4:
            self.mac.update(chunk)
        if i in (0, 2):
            if len(self.kept) + len(chunk) > MAX_HEADER:
                self.bad = True
            else:
                self.kept += chunk
        elif i == 4:
            self.content.feed(bytes(chunk))

    def end(self):
        if self.index is None:
            if self.kept == DELIMITER:
                self.index = 0
            return
        if self.index == 0:
            self.signature = bytes(self.kept)
        elif self.index == 2:
            self.parent = bytes(self.kept)
        self.index += 1
        self.kept = bytearray()

    def answer(self, msg_id):
        """The (cut) content if this is a signed reply to ``msg_id``, else None."""
        if self.bad or self.index is None or self.index < 5:
            return None
        if not hmac.compare_digest(self.signature, self.mac.hexdigest().encode()):
            return None
        try:
            parent_id = json.loads(self.parent).get("msg_id")
        except (ValueError, AttributeError, RecursionError):
            return None
        return self.content.result() if parent_id == msg_id else None


class Link:
    def __init__(self, config):
        self.key = config["key"].encode()
        self.max_message = int(config["max_message"])
        self.budget = int(config["max_bytes"])  # all bytes received, replies included
        self.strays = int(config["max_strays"])  # messages that answer no request
        self.path = config["path"]
        self.session = os.urandom(16).hex()
        self.sock = None
        # the greeting alone until the kernel's has come (libzmq drops a connection whose
        # first bytes run past the greeting), then the rest
        self.outgoing = bytearray(_greeting())
        self.queued = bytearray(_frame(_ready(), COMMAND))
        self.buf = bytearray(CHUNK)  # what is received, read from start to stop
        self.view = memoryview(self.buf)
        self.start = self.stop = 0
        self.greeted = False
        self.frame = None  # [flags, bytes left] of the frame being read
        self.command = bytearray()
        self.message = None
        _limit(config)

    # -- sending -----------------------------------------------------------------------

    def sign(self, parts):
        mac = hmac.new(self.key, digestmod=hashlib.sha256)
        for part in parts:
            mac.update(part)
        return mac.hexdigest().encode()

    def send(self, request):
        header = {"msg_id": request["msg_id"], "msg_type": request["msg_type"],
                  "username": "grader", "session": self.session, "version": "5.3",
                  "date": time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())}
        parts = [json.dumps(p).encode() for p in (header, {}, {}, request["content"])]
        frames = [DELIMITER, self.sign(parts), *parts]
        for i, part in enumerate(frames):
            (self.outgoing if self.greeted else self.queued).extend(
                _frame(part, MORE if i < len(frames) - 1 else 0))

    # -- ending ------------------------------------------------------------------------

    def flood(self, why, kind="flood"):
        out = sys.stdout.buffer
        out.write(json.dumps({kind: why}).encode() + b"\n")
        out.flush()
        os._exit(3)

    # -- the connection ----------------------------------------------------------------

    def _connect(self):
        """Connect once the kernel listens (it may not yet when the link starts)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(1.0)
        try:
            sock.connect(self.path)
        except OSError:
            sock.close()
            return False
        sock.setblocking(False)
        self.sock = sock
        return True

    def _pump(self, seconds):
        """Send what is queued and receive what has come, waiting at most ``seconds`` for
        it. Before this, every byte received but a partial frame header has been read."""
        if self.sock is None:
            if not self._connect():
                time.sleep(min(seconds, 0.02))
                return
        if self.outgoing:
            try:
                del self.outgoing[:self.sock.send(self.outgoing)]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self.flood("the kernel closed its connection to the grader", "disconnected")
        left = self.stop - self.start  # a partial frame header, or the greeting's start
        self.buf[:left] = self.buf[self.start:self.stop]
        self.start, self.stop = 0, left
        try:
            n = self.sock.recv_into(self.view[left:])
        except (BlockingIOError, InterruptedError):
            select.select([self.sock], [self.sock] if self.outgoing else [], [], seconds)
            return
        except (ConnectionResetError, BrokenPipeError):
            n = 0
        if not n:
            self.flood("the kernel closed its connection to the grader", "disconnected")
        self.budget -= n
        if self.budget < 0:
            self.flood("the kernel sent the grader more than the limit of all its replies")
        self.stop += n

    def _read(self):
        """Parse what was received until one message ends: return it, or None when every
        byte received is used but a partial frame header (kept for the next chunk)."""
        buf, view, pos, stop = self.buf, self.view, self.start, self.stop
        try:
            if not self.greeted:
                if stop - pos < 64:
                    return None
                if buf[pos] != 0xFF or not buf[pos + 9] & 1 or buf[pos + 10] < 3 or \
                        bytes(buf[pos + 12:pos + 32]).rstrip(b"\0") != b"NULL":
                    self.flood("the kernel sent the grader bytes that are not ZeroMQ messages")
                self.greeted = True
                pos += 64
                self.outgoing += self.queued
                self.queued = bytearray()
            while pos < stop:
                if self.frame is None:
                    flags = buf[pos]
                    head = 9 if flags & LONG else 2
                    if stop - pos < head:
                        return None
                    if flags & ~(MORE | LONG | COMMAND):
                        self.flood("the kernel sent the grader bytes that are not ZeroMQ "
                                   "messages")
                    size = struct.unpack_from(">Q", buf, pos + 1)[0] if flags & LONG \
                        else buf[pos + 1]
                    pos += head
                    self.frame = [flags, size]
                    if flags & COMMAND:
                        self.command = bytearray()
                    else:
                        if self.message is None:
                            self.message = Message(self.key, self.max_message)
                        self.message.begin()
                flags, left = self.frame
                n = min(left, stop - pos)
                if flags & COMMAND:
                    if len(self.command) + n <= MAX_HEADER:
                        self.command += view[pos:pos + n]
                else:
                    self.message.data(view[pos:pos + n])
                pos += n
                self.frame[1] = left - n
                if self.frame[1]:
                    return None
                self.frame = None
                if flags & COMMAND:
                    self._command(bytes(self.command))
                    continue
                self.message.end()
                if not flags & MORE:
                    message, self.message = self.message, None
                    return message
            return None
        finally:
            self.start = pos

    def _command(self, body):
        name = body[1:1 + body[0]] if body else b""
        if name == b"PING":  # ZMTP 3.1 heartbeat: answer with its context
            context = body[1 + body[0] + 2:][:16]
            self.outgoing += _frame(b"\x04PONG" + context, COMMAND)
        elif name == b"ERROR":
            self.flood("the kernel refused the grader's connection", "disconnected")

    def wait(self, msg_id, timeout):
        deadline = time.monotonic() + timeout
        while True:
            message = self._read()
            if message is not None:
                content = message.answer(msg_id)
                if content is not None:
                    return content
                self.strays -= 1
                if self.strays < 0:
                    self.flood("the kernel sent the grader too many messages that answer "
                               "nothing")
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self._pump(min(remaining, 0.1))


def _greeting():
    """ZMTP 3.0 greeting: signature, version 3.0, NULL mechanism, not a server."""
    return b"\xff" + b"\0" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\0") + b"\0" * 32


def _ready():
    name, value = b"Socket-Type", b"DEALER"
    return b"\x05READY" + bytes([len(name)]) + name + struct.pack(">I", len(value)) + value


def _frame(body, flags):
    if len(body) > 255:
        return bytes([flags | LONG]) + struct.pack(">Q", len(body)) + body
    return bytes([flags, len(body)]) + body


def _die_with_parent(parent):
    """SIGKILL this process when the grading process that started it ends (Linux)."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def main():
    stdin = sys.stdin.buffer
    config = json.loads(stdin.readline())
    _die_with_parent(config["parent"])
    link = Link(config)
    out = sys.stdout.buffer
    for line in stdin:
        request = json.loads(line)
        if "msg_type" in request:
            link.send(request)
        msg_id = request["msg_id"]
        try:
            content = link.wait(msg_id, float(request["timeout"]))
        except MemoryError:
            link.flood("the kernel sent the grader more than its connection may hold")
        if content is None:
            out.write(json.dumps({"msg_id": msg_id, "timeout": True}).encode() + b"\n")
        else:
            out.write(json.dumps({"msg_id": msg_id, "reply": len(content)}).encode() + b"\n")
            out.write(content)
        out.flush()


if __name__ == "__main__":
    main()
