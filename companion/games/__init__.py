"""The games the companion knows: every package in this folder (companion.catalogue finds
them). Adding a game touches no other game and no list: drop its folder here.

A game package `companion.games.<pkg>` exposes:
- `GAME`: an object implementing companion.game.Game (pure rules), whose `name`, `title`,
  `min_players`, `max_players` and `lower_is_better` are the game's metadata everywhere
  (home screen, CLI, history, statistics, BG Stats);
- `BLURB`: one line for the home screen, and `SHELF`: its place there (lower first);
- optionally `commands.VERBS`: {"odds": fn(argv) -> int, ...} for `companion <verb> <game>`
  (listed as the game's tools by `companion games`);
- optionally `screen.GameScreen`: its Kivy screen (a companion.ui.game_screen.GameScreen);
- optionally `OPTIONS` (companion.game.Option) shown on the set-up screen, and
  `prepare_options(log, players, options) -> options` to fill options from history;
- optionally `facts.round_facts(before, after)`: what the history keeps of a round
  (companion.rounds);
- optionally `stats`: the game's own statistics (companion.history reads it
  through companion.catalogue):
  `statistics(games, facts) -> {key: JSON}` over its finished games (GameSummary) and their
  replayed facts (in the same order; {} for a game not replayed yet), merged into the
  statistics under those keys; `lines(data) -> [(player, text)]`, that data for people,
  shown after the game's title and the player's name ("" for a line about no one);
  `READS_ROUNDS = True` when it needs the facts;
  `mode_name(mode, players) -> str` when a stored mode option is not what people call it;
- optionally `camera_setup`: what the camera set-up screen sets up for it
  (companion.ui.camera_setup.contract): `TABS`, its own tables' tabs (`Tab`: a title, the set-up
  the tab opens, what to lay), and `CARD_SETS`, the cards the shared Balls & cards tab
  learns for it (`CardSet`). Named so because `setup.py` may be the game's own set-up.
- optionally `camera`: what the game brings to the camera (companion.runtime): `READERS`,
  {kind: adapter} for the `ReaderSpec.kind`s it asks for beyond the shared "balls" and
  "cards" (an adapter is made with the camera's companion.runtime.readers.Setup), and
  `SCENE_PART`, its own part of the simulated table (a companion.runtime.sim_scene.ScenePart:
  what it lays, where the simulated camera looks).
Screens, commands, statistics, camera set-ups and camera parts are imported only when a game
is used.
"""
