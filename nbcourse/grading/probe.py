"""Evaluate probes in a notebook namespace and turn the results into plain JSON text.

This module has two users:

* the grader sends its *source text* into the student's kernel (the kernel cannot
  import nbcourse) and calls :func:`run` there through a ``user_expressions`` entry;
* :mod:`nbcourse.grading.check` imports it to give instant feedback in the notebook.

It therefore uses only the standard library, imports nothing at module level and takes
its reference types from literals (``(0.5).__class__`` and so on), so that a notebook
which rebinds ``float``, ``json`` or ``isinstance`` cannot change how values are encoded.
None of this is a security boundary: the student owns the kernel process. What the grader
trusts is only the *text* this module returns, which it parses and checks strictly in its
own process against values it computes itself.

A probe is a plain tuple:

* ``("call", name, args, kwargs, arrays)`` calls ``namespace[name](*args, **kwargs)``;
  when ``arrays`` is true, list arguments are passed as float numpy arrays;
* ``("value", name)`` reads ``namespace[name]``.

Each probe gives ``{"ok": true, "value": ...}`` or ``{"ok": false, "error": "..."}``.
An answer not given yet (a ``...`` placeholder, or the placeholder body that raises
``NotImplementedError``) gives an error that starts with ``"Placeholder: "`` and says, in
the student's words, what is missing.
"""

_FLOAT = (0.5).__class__
_INT = (1).__class__
_BOOL = True.__class__
_STR = "".__class__
_LIST = [].__class__
_TUPLE = ().__class__
_DICT = {}.__class__
_NONE = None.__class__

MAX_ITEMS = 100_000
MAX_DEPTH = 16
MAX_STR = 10_000


class ProbeError(Exception):
    """A value that cannot be turned into plain JSON."""


def _numpy():
    import sys

    return sys.modules.get("numpy")


def to_plain(value, depth=0):
    """Convert ``value`` to None, bool, int, float, str, list or dict (str keys).

    Exact built-in types and exact numpy scalar and ndarray types are accepted;
    subclasses and any other objects raise :class:`ProbeError`.

    >>> to_plain((1, 2.5, [True, None]))
    [1, 2.5, [True, None]]
    """
    if depth > MAX_DEPTH:
        raise ProbeError("value is nested too deeply")
    kind = value.__class__
    if kind is _NONE or kind is _BOOL or kind is _FLOAT:
        return value
    if kind is _INT:
        if not -(2**63) <= value < 2**63:
            raise ProbeError("integer is too large")
        return value
    if kind is _STR:
        if _STR.__len__(value) > MAX_STR:
            raise ProbeError("string is too long")
        return _STR.__str__(value)
    if kind is _LIST or kind is _TUPLE:
        if kind.__len__(value) > MAX_ITEMS:
            raise ProbeError("sequence is too long")
        return [to_plain(item, depth + 1) for item in kind.__iter__(value)]
    if kind is _DICT:
        if _DICT.__len__(value) > MAX_ITEMS:
            raise ProbeError("dict is too large")
        out = {}
        for key in _DICT.__iter__(value):
            if key.__class__ is not _STR:
                raise ProbeError("dict keys must be str")
            out[_STR.__str__(key)] = to_plain(_DICT.__getitem__(value, key), depth + 1)
        return out
    return _numpy_to_plain(value, kind, depth)


def _numpy_to_plain(value, kind, depth):
    if value is Ellipsis:
        raise ProbeError("still the placeholder ...; replace it with your answer")
    np = _numpy()
    if np is None:
        raise ProbeError(f"unsupported type {kind.__name__}")
    if kind is np.ndarray:
        if value.dtype.kind not in "biuf":
            raise ProbeError(f"unsupported array dtype {value.dtype}")
        if value.size > MAX_ITEMS:
            raise ProbeError("array is too large")
        return to_plain(np.ndarray.tolist(value), depth + 1)
    scalar = getattr(np, kind.__name__, None) if kind.__module__ == "numpy" else None
    if scalar is kind and issubclass(kind, np.generic):
        if np.dtype(kind).kind not in "biuf":
            raise ProbeError(f"unsupported numpy scalar {kind.__name__}")
        return to_plain(np.generic.item(value), depth + 1)
    raise ProbeError(f"unsupported type {kind.__name__} (return numbers, lists or arrays)")


def _encode_str(text):
    parts = ['"']
    for char in text:
        code = ord(char)
        if char == '"' or char == "\\" or code < 32 or code > 126:
            parts.append(f"\\u{code:04x}" if code < 0x10000 else _surrogates(code))
        else:
            parts.append(char)
    parts.append('"')
    return "".join(parts)


def _surrogates(code):
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def encode(plain):
    """Encode a value returned by :func:`to_plain` as JSON text (NaN/Infinity allowed).

    >>> encode({"a": [1, 0.5, None, True, float("inf")]})
    '{"a":[1,0.5,null,true,Infinity]}'
    """
    kind = plain.__class__
    if kind is _NONE:
        return "null"
    if kind is _BOOL:
        return "true" if plain else "false"
    if kind is _INT:
        return _INT.__repr__(plain)
    if kind is _FLOAT:
        if plain != plain:
            return "NaN"
        if plain in (_FLOAT("inf"), _FLOAT("-inf")):
            return "Infinity" if plain > 0 else "-Infinity"
        return _FLOAT.__repr__(plain)
    if kind is _STR:
        return _encode_str(plain)
    if kind is _LIST:
        return "[" + ",".join(encode(item) for item in plain) + "]"
    return "{" + ",".join(_encode_str(k) + ":" + encode(v) for k, v in plain.items()) + "}"


def _argument(arg, arrays):
    np = _numpy()
    if arrays and np is not None and arg.__class__ is _LIST:
        return np.array(arg, dtype=float)
    return arg


PLACEHOLDER = "Placeholder: "


def _describe(exc):
    name = exc.__class__.__name__
    try:
        text = _STR(exc)[:300]
    except BaseException:
        text = ""
    return f"{name}: {text}" if text else name


class _ProbeTimeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _ProbeTimeout()


def evaluate(probe, namespace):
    """Evaluate one probe in ``namespace``; return a plain result record.

    >>> evaluate(("call", "f", [2], {}, False), {"f": lambda x: x * 3})
    {'ok': True, 'value': 6}
    >>> evaluate(("value", "missing"), {})["error"]
    'NameError: missing is not defined'
    """
    try:
        if probe[0] == "value":
            if probe[1] not in namespace:
                return {"ok": False, "error": f"NameError: {probe[1]} is not defined"}
            if namespace[probe[1]] is Ellipsis:
                return {"ok": False, "error": f"{PLACEHOLDER}{probe[1]} is still ...; "
                                              f"replace the ... with your answer"}
            return {"ok": True, "value": to_plain(namespace[probe[1]])}
        _, name, args, kwargs, arrays = probe
        if name not in namespace:
            return {"ok": False, "error": f"NameError: {name} is not defined"}
        call_args = [_argument(a, arrays) for a in args]
        call_kwargs = {k: _argument(v, arrays) for k, v in kwargs.items()}
        try:
            value = namespace[name](*call_args, **call_kwargs)
        except NotImplementedError:
            return {"ok": False, "error": f"{PLACEHOLDER}{name} is not written yet: replace "
                                          f"its raise NotImplementedError(...) line with "
                                          f"your code"}
        if value is Ellipsis:
            return {"ok": False, "error": f"{PLACEHOLDER}{name} returned the placeholder ...; "
                                          f"replace the ... with your code"}
        return {"ok": True, "value": to_plain(value)}
    except _ProbeTimeout:
        return {"ok": False, "error": "TimeoutError: the call took too long"}
    except BaseException as exc:  # the student's code may raise anything, even SystemExit
        return {"ok": False, "error": _describe(exc)}


def run(probes, nonce, namespace, seconds=5.0):
    """Evaluate ``probes`` and return ``nonce + json + nonce``.

    Each probe gets at most ``seconds`` of wall time (SIGALRM, main thread only).

    >>> run([("value", "x")], "N", {"x": 1.5})
    'N[{"ok":true,"value":1.5}]N'
    """
    import signal
    import threading

    timed = threading.current_thread() is threading.main_thread()
    results = []
    for probe in probes:
        if timed:
            old = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            record = evaluate(probe, namespace)
        except _ProbeTimeout:
            record = {"ok": False, "error": "TimeoutError: the call took too long"}
        finally:
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
        try:
            results.append(encode(record))
        except BaseException as exc:
            results.append(encode({"ok": False, "error": _describe(exc)}))
    return nonce + "[" + ",".join(results) + "]" + nonce
