"""Colour MY Kritters's end: each player enters their cards, the scorer finds their best
score, and the last entry ends the game with the winners (or the solo best to beat)."""

from __future__ import annotations

from dataclasses import replace

from companion import cues as cue
from companion.errors import IllegalMove, UsageError
from companion.games.kritters import score_input
from companion.games.kritters.scoring import Score, best_score

from .events import ScoreEntered
from .state import KrittersState, PlayerScore, ranking


def score_entered(state: KrittersState, ev: ScoreEntered):
    if ev.player not in state.players:
        raise IllegalMove(f"{ev.player!r} is not playing")
    try:
        try:
            doc = ev.document()
        except (TypeError, ValueError):
            raise UsageError("point kritters are (colour, points) pairs") from None
        doc.update(variant=state.options.variant, triad_bonus=state.options.triad_bonus)
        col, rules = score_input.parse(doc)
    except UsageError as exc:
        raise IllegalMove(f"{ev.player}: {exc}") from None
    if not state.options.more_points:
        if col.paint_buckets:
            raise IllegalMove(
                "paint buckets come with the More Points expansion, which this game does not use"
            )
        odd = [p.points for p in col.point_kritters if p.points not in (3, 4, 5)]
        if odd:
            raise IllegalMove(
                f"point kritters worth {odd[0]} come with the More Points "
                "expansion, which this game does not use"
            )
    score: Score = best_score(col, rules)
    entry = PlayerScore(ev.player, col, score.total, score.explanation)
    results = tuple(r for r in state.results if r.player != ev.player) + (entry,)
    results = tuple(sorted(results, key=lambda r: state.players.index(r.player)))
    new = replace(state, results=results)
    cues: list[cue.Cue] = [cue.Scored(ev.player, score.total)]
    if len(results) == len(state.players):
        new = replace(new, phase="over")
        cues.extend(final_cues(new))
    return new, cues


def final_cues(state: KrittersState) -> list[cue.Cue]:
    if len(state.players) == 1:
        total = state.results[0].total
        best = state.options.solo_best
        if best is None:
            return [cue.Announce(f"Solo score: {total}. Beat it next time!")]
        if total > best:
            return [cue.Announce(f"New best solo score: {total} (was {best})!")]
        return [cue.Announce(f"Solo score: {total}; your best is {best}")]
    top = [p for place, p, _ in ranking(state) if place == 1]
    return [cue.Announce(" and ".join(top) + (" share the win" if len(top) > 1 else " wins"))]
