"""The rendered table: the simulated camera's pictures and the development set's frames.

tray          the ball tray, the white patch and card zones (render_tray, LIGHTS)
tray_geometry where the tray, the patch, the zones and their pieces lie
cards         the table with a card zone per seat and the centre
ring, node    the Laser ring and the Node table
ring_board    the ring's geometry and what stands on it (RingBoard)
lighting      the light over the table and the camera that sees it
spectral      measured reflectances under spectral light (data/spectra.json)
conditions    a development set-up's light, camera move, exposure, blur and noise
scenes/       the four scenes of the development set, one module each; dataset writes it
"""
