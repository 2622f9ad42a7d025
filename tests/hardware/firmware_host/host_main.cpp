// Runs the real sketch: host lines from stdin, three balls with rim chatter, one heartbeat.
#include "Arduino.h"
unsigned long fake_us = 0;
uint8_t beam_level = HIGH;
FakeSerial Serial;
#include "chute_board.ino"

static void beam(uint8_t level, unsigned long then_us) {
  beam_level = level;
  onBeamChange();
  fake_us += then_us;
}

int main() {
  Serial.len = std::fread(Serial.in, 1, sizeof Serial.in, stdin);
  setup();
  for (int ball = 0; ball < 3; ++ball) {
    fake_us += 100000;
    beam(LOW, 1000);  // the rim chatters...
    beam(HIGH, 1000);
    beam(LOW, 25000);  // ...then the ball blocks the beam
    beam(HIGH, 0);
    loop();
  }
  fake_us += 1000000;
  loop();  // a heartbeat, and the answer to the host's request
  return 0;
}
