"""The Color Milk screen's panels, each a widget built from the state and the screen's pad."""
