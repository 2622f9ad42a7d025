"""Reading a game's entries back to replay it: each checked against the hash chain written
with it, the outbox's entries after them; and a game as a self-contained document."""

from __future__ import annotations

import json
from typing import Any

from companion.entries import Entry
from companion.store.integrity import DamagedGame, chain_link, entry_payload
from companion.store.records import GameRecords
from companion.store.writing import Writer


class GameEntries:
    """The entries of one log's games, read through its writer's connection and outbox."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries, each checked against the hash chain written with it.
        Raises DamagedGame if one is missing, altered or unreadable."""
        rows = self.writer.db.execute(
            "SELECT seq, kind, payload, chain FROM entries WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        out, prev = [], ""
        for expected, (seq, kind, text, chain) in enumerate(rows, start=1):
            if seq != expected:
                raise DamagedGame(game_id, f"entry {expected} is missing")
            payload = entry_payload(game_id, seq, kind, text)
            link = chain_link(prev, seq, kind, text)
            if chain is not None and chain != link:
                raise DamagedGame(game_id, f"entry {seq} was altered after it was written")
            out.append(Entry(seq, kind, payload))
            prev = link
        for _, _gid, seq, kind, text, _at in self.writer.waiting("entry", game_id):
            out.append(Entry(seq, kind, None if text is None else json.loads(text)))
        return out

    def timed_entries(self, game_id: int) -> list[tuple[Entry, str]]:
        """Entries with the time each was written, for exports."""
        rows = self.writer.db.execute(
            "SELECT seq, kind, payload, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        rows += [op[2:] for op in self.writer.waiting("entry", game_id)]
        return [(Entry(s, k, None if p is None else json.loads(p)), at) for s, k, p, at in rows]

    def next_seq(self, game_id: int) -> int:
        """The sequence number the game's next entry takes (call with the writer's lock held,
        so that no other entry takes it meanwhile)."""
        if waiting := self.writer.waiting("entry", game_id):
            return waiting[-1][2] + 1
        last = self.writer.db.execute(
            "SELECT max(seq) FROM entries WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        return (last or 0) + 1

    def export(self, records: GameRecords, game_id: int) -> dict[str, Any]:
        """A self-contained JSON document of one game, readable by `companion replay`.
        A damaged game is exported too: its rows as stored, the reason under "set_aside"."""
        rec = records.game(game_id)
        doc = {
            "format": "table-companion-log/1",
            "game": rec.game,
            "config": rec.config,
            "status": rec.status,
        }
        try:
            entries = [
                {"seq": e.seq, "kind": e.kind, "event": e.payload} for e in self.entries(game_id)
            ]
        except DamagedGame as exc:
            doc["set_aside"] = records.set_aside_games().get(game_id, exc.why)
            rows = self.writer.db.execute(
                "SELECT seq, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            entries = [{"seq": s, "kind": k, "stored": p} for s, k, p in rows]
        doc["entries"] = entries
        return doc
