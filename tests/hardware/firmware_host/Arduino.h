// Just enough of the Arduino core to run the chute board sketch on a computer: the serial
// port is stdin/stdout, time and the beam pin are driven by the test's main().
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

const uint8_t LOW = 0, HIGH = 1, INPUT_PULLUP = 2, CHANGE = 3;
extern unsigned long fake_us;
extern uint8_t beam_level;
inline unsigned long micros() { return fake_us; }
inline unsigned long millis() { return fake_us / 1000; }
inline int digitalRead(uint8_t) { return beam_level; }
inline void pinMode(uint8_t, uint8_t) {}
inline int digitalPinToInterrupt(uint8_t pin) { return pin; }
inline void attachInterrupt(int, void (*)(), int) {}
inline void noInterrupts() {}
inline void interrupts() {}

struct FakeSerial {
  char in[256];
  size_t len = 0, pos = 0;
  void begin(unsigned long) {}
  int available() { return (int)(len - pos); }
  int read() { return pos < len ? in[pos++] : -1; }
  void write(char c) { std::putchar(c); }
  void print(const char *s) { std::fputs(s, stdout); }
};
extern FakeSerial Serial;
