"""The camera: sources, the one colour path, the classifier and the readers built on them.

OpenCV is imported only inside this package, so the app can start without it and load it
lazily. The stages every reader shares:

    vision.sources       camera sources (Pi camera, OpenCV, a folder of images, renders)
    vision.camera        Camera: a capture thread over a source, latest-frame slot, status
    vision.feed          VisionFeed: camera -> reader thread -> events
    vision.colour        camera RGB -> linear light -> the frame's white -> features
    vision.registration  where the set-up lies in tonight's frame; vision.layout on top
    vision.segment       foreground masks, contours, touching objects split
    vision.classify      the classifier learnt from one piece of each colour
    vision.calibration   calibrations as JSON; vision.learn builds them

The readers: vision.balls (the tray), vision.card_zones (cards by zone), vision.ring,
vision.node, and vision.detect with vision.regions for still photos. The renderers
(vision.render) draw the simulated table; vision.cli is `companion vision ...`.

See docs/vision.md.
"""
