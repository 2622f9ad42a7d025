"""Node placement reader: which card was just laid on the table, where, and its colours.

Each game begins by finding the mat's printed lattice in its first frame
(`vision.node.grid_search`: the camera may have been nudged and the mat laid down anew); the
lattice is then kept for the whole game. Two frames of the table are squared up onto it
(`vision.node.squaring`), `PX` pixels a node with `MARGIN` nodes round, and compared:

- **What changed** (`vision.segment.DifferenceMask`, fast CIELAB, on a half-size image) is
  the new card, which lies on top of everything, and anything else: what changed across the
  edge of the squared-up table, even faintly, came in from outside (an arm, its shadow) and
  hides only what it covers; a hand at the card, or more change than one card, waits.
- **The card's own lattice.** Its white paper (the brightest thing on it in every channel:
  its white, `colour.reference_white`) runs between its nodes and round them: turned so that
  the paper runs straight, the paper's phase gives its cells. A cell of the card shows ink
  framed by paper. Every way the card could lie over the cells that changed is tried (a node
  laid exactly on a node of its colour does not change): the one whose weakest cell changed
  most wins, and another that comes close means asking.
- **Snapped only when the evidence agrees.** A card turned about its middle lies nearest the
  placement its middle is nearest; a middle more than `SNAP_LIMIT` off lies between two
  placements, and the reading asks with both as answers. Never silently a column off.
- **Colours** through the one colour path (`vision.colour`): each node's pixels balanced by
  the white of the card's own paper (a local reference, right under a lamp on one side and a
  window on the other), classified among the Node colours (`vision.classify`), whose
  confidence alone says when to ask.

The package, by concern: `grid` (the lattice as it lies in a frame) and `grid_search`
(finding it), `calibration` (what the reader keeps between games), `squaring` (the table
squared up onto its lattice), `card` (where the card was laid, apart from a hand) and
`card_lattice` (the card's own cells, found in its paper), `reading` (what one reading says)
and `reader` (the reader that ties them and names the colours); `table_setup` (the set-up:
the lattice on a photo of the empty mat, the nodes named), `watch` (a reading only between
steady frames) and `cli` (`companion vision calibrate-node`, `read node`).
"""
