"""How format.json was written: every key of every kind of object in real BG Stats exports,
with the JSON types seen and whether every object of its kind carries it.

    python tests/data/bgstats/describe.py LABEL=EXPORT.json ... > tests/data/bgstats/format.json

`always` is counted over the exports of the current layout (app version 5 or later, which
write `userInfo.appVersion`); an older export only adds the types and keys it shows.
"""

from __future__ import annotations

import json
import re
import sys
import uuid

DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def is_uuid(text: str) -> bool:
    try:
        return len(text) == 36 and bool(uuid.UUID(text))
    except ValueError:
        return False


def objects(doc: dict) -> dict[str, list[dict]]:
    plays = doc.get("plays", [])
    return {
        "file": [doc],
        "userInfo": [doc["userInfo"]],
        "player": doc.get("players", []),
        "game": doc.get("games", []),
        "location": doc.get("locations", []),
        "play": plays,
        "playerScore": [s for p in plays for s in p.get("playerScores", [])],
        "expansionPlay": [e for p in plays for e in p.get("expansionPlays", [])],
        "challenge": doc.get("challenges", []),
    }


def describe(files: list[tuple[str, dict]]) -> dict:
    kinds: dict[str, dict[str, dict]] = {}
    current = [(label, doc) for label, doc in files if "appVersion" in doc["userInfo"]]
    for label, doc in files:
        for kind, items in objects(doc).items():
            keys = kinds.setdefault(kind, {})
            for item in items:
                for key, value in item.items():
                    k = keys.setdefault(key, {"types": set(), "strings": [], "files": set()})
                    k["types"].add(json_type(value))
                    k["files"].add(label)
                    if isinstance(value, str) and len(k["strings"]) < 100_000:
                        k["strings"].append(value)
    out: dict[str, dict] = {}
    for kind, keys in kinds.items():
        out[kind] = {}
        for key, k in sorted(keys.items()):
            always = all(
                all(key in item for item in objects(doc)[kind])
                for _, doc in current
                if objects(doc)[kind]
            ) and any(objects(doc)[kind] for _, doc in current)
            entry = {"types": sorted(k["types"]), "always": always, "files": len(k["files"])}
            strings = [s for s in k["strings"] if s]
            if strings and all(DATE.match(s) for s in strings):
                entry["format"] = "YYYY-MM-DD HH:MM:SS"
            elif strings and all(is_uuid(s) for s in strings):
                entry["format"] = "uuid"
            out[kind][key] = entry
    sources = [
        {
            "label": label,
            "appVersion": doc["userInfo"].get("appVersion", "(older layout, 2021)"),
            "exportDate": doc["userInfo"].get("exportDate", ""),
            "plays": len(doc.get("plays", [])),
            "players": len(doc.get("players", [])),
            "games": len(doc.get("games", [])),
        }
        for label, doc in files
    ]
    return {
        "about": "Keys and JSON types of BG Stats exports as the app writes them, observed in "
        "real exports (see SOURCE.md). always: every object of its kind carries the key in "
        "every export of the current layout; files: in how many exports the key occurs.",
        "sources": sources,
        "objects": out,
    }


def main(argv: list[str]) -> None:
    files = []
    for arg in argv:
        label, path = arg.split("=", 1)
        with open(path, encoding="utf-8") as f:
            files.append((label, json.load(f)))
    print(json.dumps(describe(files), indent=1, sort_keys=False))


if __name__ == "__main__":
    main(sys.argv[1:])
