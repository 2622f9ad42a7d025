"""The Laser ring read from one camera frame: what stands on each of the 12 floor tiles (a
prism figure's colour, the cat, or nothing) and how many spare figures stand on each colour
card.

Each game the ring is found on its empty frame (`vision.ring.layout`): every tile's and
card's outline, and how each looks empty. A frame is then read piece by piece:

- **What changed** on a tile or card against its empty look (`colour.lab8`, the frame first
  brought to the empty frame's light as the piece's own grey or paper says), anywhere within
  `SEARCH` of a tile from its centre: a figure standing off-centre is found all the same.
  A change that reaches the edge of that search area comes from outside: a hand or an arm
  over the piece. The piece is then asked, never read, unless a whole figure stands clear
  of the hand: a hand hides only what it covers.
- **The white** where the piece lies is read off the piece itself: the tile's grey (or the
  card's paper) in this frame, over what the calibration measured it to be against white
  (`colour.reference_white`). So a lamp on one side and a window on the other balance
  tile by tile, and a tile in a shadow is read in its own light.
- **What it is**: the changed region's colour (`colour.colour_of`) goes to the classifier
  (`vision.classify`), which knows the six colours, the cat's white and the empty tile's
  grey, each learnt from one piece; its confidence is the reading's. The region's size must
  agree with the size learnt for that answer (`SHAPE`): a cat is the size of a cat, an
  empty tile has no figure-sized change. Otherwise the tile is asked, with the likely
  answers first.
- A reading no table can show (two cats, more than four figures of a colour) asks every
  tile and card involved.

The package, by concern: `reading` (what one frame's reading says), `spots` (one tile or
card measured: what changed on it, its white, its bare surface), `reader` (the reader that
finds the ring each game and reads frames piece by piece) and `learning` (the ring learnt
from the set-up's photos); `layout` (where the ring lies tonight), `calibration` (the
ring's calibration file) and `cli` (`companion vision calibrate-ring`, `read laser`).
"""
