"""The camera: sources, calibration, colour classifier, ball reader and card reader.

OpenCV is imported only inside this package, so the app can start without it and load it
lazily. Entry points:

    vision.camera      Camera (capture thread, latest-frame slot, status), sources
    vision.calibration Calibration, load/save, CalibrationStore, rendered_calibration()
    vision.balls       BallReader(calibration).feed(frame) -> [BallSeen]
    vision.cards       CardReader(calibration).read(frame) -> [CardSeen]
    vision.sanity      check(reading, possible) -> Verdict (impossible readings are asked)
    vision.feed        VisionFeed: camera -> reader thread -> events
    vision.render      render_tray(), render_cards(), arrival_frames(), LIGHTS (simulation)
    vision.cli         `companion vision calibrate|classify|render`

See docs/vision.md.
"""
