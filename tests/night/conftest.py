"""One app per part of the game night (a family leaves it on), each in its own 800x480
Xvfb: the parts run side by side on the suite's processes."""

from __future__ import annotations

import pytest

from tests.night.family import Family
from tests.ui.test_real_window import display

__all__ = ["display"]  # the Xvfb fixture (800x480, a display number of its own)


@pytest.fixture(scope="module")
def family(display, tmp_path_factory):
    f = Family(display, tmp_path_factory.mktemp("night") / "data")
    yield f
    crashed = f.seen.get("crash")
    assert f.stop() == 0 or crashed  # the test that crashed it says so


@pytest.fixture(autouse=True)
def _each_test_its_own_findings(family):
    """Each test is its own evening: from Home, with nothing seen yet (the last game's
    results, still up, were the last test's)."""
    family.home()
    family.forget()
