// The colour sensor: a fixed reading, so the test knows what each ball line must say.
#pragma once
#include "Arduino.h"
const int TCS34725_INTEGRATIONTIME_24MS = 0, TCS34725_GAIN_4X = 0;
struct Adafruit_TCS34725 {
  Adafruit_TCS34725(int, int) {}
  bool begin() { return true; }
  void getRawData(uint16_t *r, uint16_t *g, uint16_t *b, uint16_t *c) {
    *r = 1200, *g = 2100, *b = 900, *c = 4500;
  }
};
