"""Symbolic links planted in the data folder are never written through (issue 28, item 10):
the log, its folders for backups and set-aside logs, the temporary files of the settings and
of a camera set-up, and the history cache."""

from __future__ import annotations

import pytest

from companion.errors import LogError
from companion.history import CACHE_NAME, History
from companion.store import GameLog


@pytest.fixture
def elsewhere(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("keep me")
    return target


def untouched(target) -> bool:
    return sorted(p.name for p in target.iterdir()) == ["keep.txt"]


def test_a_log_that_is_a_link_is_not_opened(tmp_path, elsewhere):
    data = tmp_path / "data"
    data.mkdir()
    (data / "games.sqlite3").symlink_to(elsewhere / "keep.txt")
    with pytest.raises(LogError, match="symbolic link"):
        GameLog(data / "games.sqlite3")
    assert untouched(elsewhere)


def test_backups_and_set_aside_folders_that_are_links_take_nothing(tmp_path, elsewhere):
    from companion.store.restore import set_aside

    data = tmp_path / "data"
    data.mkdir()
    (data / "backups").symlink_to(elsewhere)
    log = GameLog(data / "games.sqlite3")
    log.new_game("node", {"players": ["A", "B"]})
    with pytest.raises(LogError, match="symbolic link"):
        log.backups.make(log._db)
    log.close()  # its copy on close is refused the same way, quietly
    assert untouched(elsewhere)
    (data / "set-aside").symlink_to(elsewhere)
    with pytest.raises(LogError, match="symbolic link"):
        set_aside(data / "games.sqlite3")
    assert untouched(elsewhere) and (data / "games.sqlite3").exists()


def test_the_history_cache_as_a_link_is_replaced_not_written_through(tmp_path, elsewhere):
    data = tmp_path / "data"
    log = GameLog(data / "games.sqlite3")
    (data / CACHE_NAME).symlink_to(elsewhere / "keep.txt")
    history = History.beside(log)
    history.statistics()
    history.close()
    log.close()
    assert (elsewhere / "keep.txt").read_text() == "keep me"
    assert not (data / CACHE_NAME).is_symlink()


def test_a_camera_set_up_is_saved_through_a_fresh_temp_file(tmp_path, elsewhere):
    from companion.ui.camera_setup.base import write_atomically

    path = tmp_path / "calibration.json"
    path.write_text("{}")
    for name in ("calibration.json.tmp", "calibration.previous.json.tmp"):
        (tmp_path / name).symlink_to(elsewhere / "keep.txt")
    write_atomically(path, '{"new": true}')
    assert path.read_text() == '{"new": true}'
    assert (elsewhere / "keep.txt").read_text() == "keep me"
