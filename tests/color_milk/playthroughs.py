"""Golden playthroughs of Color Milk: whole demo games (no camera, no table; see golden.py)."""

from companion.games.color_milk.demo import run_demo


def _demo(board: int, players: int, seed: int):
    def play(tmp):
        return run_demo(tmp, players, seed, board, camera=False, table=False)["log"]

    return play


PLAYTHROUGHS = {
    f"golden-b{b}-p{p}-s{s}": _demo(b, p, s) for b, p, s in ((1, 3, 7), (5, 4, 2), (6, 2, 9))
}
