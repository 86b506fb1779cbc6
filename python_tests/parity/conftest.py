"""scipy's and numpy's own tests of the functions sigkern exports under their names, run
against sigkern.

The test modules of this folder import test classes and functions from the installed scipy and
numpy test files (nothing in them is edited). For every collected test, the names listed in the
importing module's ``SWAP`` table for that test are replaced, for the duration of the test, by
the sigkern function of the same name: in ``scipy.signal`` (or ``numpy.fft``) and in the globals
of the original test module, so ``signal.decimate(...)`` and a bare ``lfilter(...)`` both reach
sigkern. Only the function under test is swapped; the references a test computes with other
scipy functions stay scipy's.

``EXPECTED_FAILURES`` (in expected_failures.py) lists the tests that fail for a reviewed reason;
they are marked ``xfail(strict=True)``, so a fix that makes one pass shows up as XPASS(strict),
a failure. Everything else must pass.
"""

from __future__ import annotations

import importlib
import inspect
import warnings

import pytest

pytest.importorskip("scipy")

with warnings.catch_warnings():
    # scipy's conftest marks its fixture's parameters with its own markers at import, before
    # pytest_configure below registers them
    warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
    from scipy.conftest import devices, xp  # noqa: E402,F401  (scipy's fixtures, numpy backend)

import sigkern  # noqa: E402

from .expected_failures import EXPECTED_FAILURES  # noqa: E402

_MARKERS = (
    "slow: scipy's slow tests",
    "xslow: scipy's very slow tests",
    "xfail_on_32bit: scipy marker",
    "array_api_backends: scipy marker",
    "skip_xp_backends: scipy marker",
    "xfail_xp_backends: scipy marker",
    "thread_unsafe: scipy marker",
    "parallel_threads_limit(n): scipy marker",
    "iterations(n): scipy marker",
    "fail_slow: scipy marker",
    "timeout: scipy marker",
)


def pytest_configure(config: pytest.Config) -> None:
    for m in _MARKERS:
        config.addinivalue_line("markers", m)


def _swap_names(item: pytest.Item) -> tuple[str, ...]:
    table = getattr(item.module, "SWAP", {})
    cls = item.cls.__name__ if item.cls is not None else None
    fn = getattr(item, "originalname", item.name)
    return tuple(table.get(cls, ()) if cls is not None else table.get(fn, ()))


def _short_id(item: pytest.Item) -> str:
    # "test_scipy_signal.py::TestDecimate::test_basic_IIR[numpy]"
    return item.nodeid.split("parity/", 1)[-1]


def _tests_swapped(item: pytest.Item) -> bool:
    """Whether a test of a class in the module's ``BY_SOURCE`` set names a swapped function in
    its source (those classes also hold tests of functions sigkern does not replace)."""
    if item.cls is None or item.cls.__name__ not in getattr(item.module, "BY_SOURCE", ()):
        return True
    src = inspect.getsource(item.function)
    return any(f"{n}(" in src for n in _swap_names(item))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep, drop = [], []
    for item in items:
        if "/parity/" not in str(item.fspath):
            keep.append(item)
            continue
        if not _tests_swapped(item):
            drop.append(item)
            continue
        keep.append(item)
        sid = _short_id(item)
        reason = EXPECTED_FAILURES.get(sid)
        if reason is None:
            # a parametrised family may be listed by its id up to the first "[" plus a prefix
            for key, why in EXPECTED_FAILURES.items():
                if key.endswith("*") and sid.startswith(key[:-1]):
                    reason = why
                    break
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(autouse=True)
def _swap_in_sigkern(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    item = request.node
    if "/parity/" not in str(item.fspath):
        return
    names = _swap_names(item)
    if not names:
        return
    func = item.function if hasattr(item, "function") else None
    origin = importlib.import_module(func.__module__) if func is not None else None
    targets = list(getattr(item.module, "TARGETS", ()))
    for name in names:
        new = getattr(sigkern, name)
        for mod in targets:
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, new)
        if origin is not None and name in vars(origin):
            monkeypatch.setattr(origin, name, new)
