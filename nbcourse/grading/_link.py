"""The grader's connection to one kernel, in a process of its own with hard limits.

The grader passes this file's *text* (``python -I -c SOURCE``). Everything a kernel sends
arrives here, never in the grading process: a kernel that floods its shell socket with
messages, or with one message of endless parts, fills this process, whose address space
and CPU time are capped by resource limits set before it reads anything (a ZeroMQ
allocation that fails aborts it). The grader then ends that submission with a reason.

Protocol, on stdin and stdout: the first line of stdin is a JSON config; then each line of
stdin is a request ``{"msg_type", "content", "msg_id", "timeout"}`` (send it, then wait for
its reply) or ``{"msg_id", "timeout"}`` (wait again). For each, one line goes to stdout:
``{"msg_id", "reply": n}`` followed by the ``n`` bytes of the reply's content frame (a signed
message whose parent is the request, at most ``max_message`` bytes in all),
``{"msg_id", "timeout": true}``, or ``{"flood": reason}`` or ``{"disconnected": reason}``
(the connection to the kernel broke: a message too large for this process, or the kernel
died) after which this process exits. It imports nothing from nbcourse.
"""

import hashlib
import hmac
import json
import os
import resource
import sys
import time

DELIMITER = b"<IDS|MSG>"
MAX_FRAMES = 64
MAX_HEADER = 65536


def _limit(config):
    mib = 1024 * 1024
    with open("/proc/self/status") as f:
        size = next(int(line.split()[1]) for line in f if line.startswith("VmSize:")) * 1024
    memory = size + config["memory_mb"] * mib
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(config["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Link:
    def __init__(self, config):
        import zmq

        self.zmq = zmq
        self.key = config["key"].encode()
        self.max_message = int(config["max_message"])
        self.budget = int(config["max_bytes"])  # all bytes received, replies included
        self.strays = int(config["max_strays"])  # messages that answer no request
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.MAXMSGSIZE, self.max_message)
        self.sock.setsockopt(zmq.RCVHWM, 4)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.monitor = self.sock.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        self.poller = zmq.Poller()
        self.poller.register(self.sock, zmq.POLLIN)
        self.poller.register(self.monitor, zmq.POLLIN)
        _limit(config)
        self.sock.connect(config["endpoint"])
        self.session = os.urandom(16).hex()

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
        self.sock.send_multipart([DELIMITER, self.sign(parts), *parts])

    def flood(self, why, kind="flood"):
        out = sys.stdout.buffer
        out.write(json.dumps({kind: why}).encode() + b"\n")
        out.flush()
        os._exit(3)

    def receive(self):
        """One whole message as a list of frames, or None if it was too large (its frames
        are read and dropped, and count against the budget)."""
        frames, size, keep = [], 0, True
        while True:
            frame = self.sock.recv(copy=False)
            size += len(frame.buffer)
            self.budget -= len(frame.buffer)
            if self.budget < 0:
                self.flood("the kernel sent the grader more than the limit of all its replies")
            if keep and (len(frames) >= MAX_FRAMES or size > self.max_message):
                keep, frames = False, []
            if keep:
                frames.append(frame.bytes)
            if not self.sock.get(self.zmq.RCVMORE):
                return frames if keep else None

    def answer(self, frames, msg_id):
        """The content frame of ``frames`` if it is a signed reply to ``msg_id``."""
        try:
            i = frames.index(DELIMITER)
            signature, header, parent, metadata, content = frames[i + 1:i + 6]
        except ValueError:
            return None
        if len(parent) > MAX_HEADER:
            return None
        expected = self.sign([header, parent, metadata, content])
        if not hmac.compare_digest(signature, expected):
            return None
        try:
            parent_id = json.loads(parent).get("msg_id")
        except (ValueError, AttributeError, RecursionError):
            return None
        return content if parent_id == msg_id else None

    def wait(self, msg_id, timeout):
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            ready = dict(self.poller.poll(int(min(remaining, 0.1) * 1000) + 1))
            if self.monitor in ready:  # a message too large to hold broke the connection,
                self.flood("the kernel sent the grader a message larger than it accepts",
                           "disconnected")  # or the kernel died
            if self.sock not in ready:
                continue
            frames = self.receive()
            content = self.answer(frames, msg_id) if frames is not None else None
            if content is not None:
                return content
            self.strays -= 1
            if self.strays < 0:
                self.flood("the kernel sent the grader too many messages that answer nothing")
        return None


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
        content = link.wait(msg_id, float(request["timeout"]))
        if content is None:
            out.write(json.dumps({"msg_id": msg_id, "timeout": True}).encode() + b"\n")
        else:
            out.write(json.dumps({"msg_id": msg_id, "reply": len(content)}).encode() + b"\n"
                      + content)
        out.flush()


if __name__ == "__main__":
    main()
