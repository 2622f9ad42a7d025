// Chute board: IR break-beam + TCS34725 colour sensor at the Color Milk mill chute.
// Speaks the Table Companion line protocol 2 (docs/hardware.md) over USB serial, 115200 8N1:
//   $CBVER,<n>,<firmware>,<protocol>*CCCC       at boot (n = 0) and on $CBGET,VER*HH
//   $CBHB,<n>,<uptime_ms>,<balls>*CCCC          every second
//   $CBBAL,<n>,<seq>,<t_ms>,<r>,<g>,<b>,<c>*CCCC  per ball
//   $CBERR,<n>,<code>,<text>*CCCC               faults
// <n> numbers every line sent (wraps at 65536) so the host knows a repeated or lost line;
// CCCC is the CRC-16/CCITT-FALSE of the text between $ and *, which catches swapped digits
// that protocol 1's XOR checksum let through.
// Needs the Adafruit_TCS34725 library. Any Arduino-class board with an interrupt pin.

#include <Wire.h>
#include <Adafruit_TCS34725.h>

const uint8_t BEAM_PIN = 2;               // receiver output (open collector): LOW = broken
const char FIRMWARE[] = "chute_board 2.0.0";
const uint8_t PROTOCOL = 2;
const unsigned long CLEAR_US = 15000UL;   // clear this long before a new break is a new ball
const unsigned long HEARTBEAT_MS = 1000UL;
const uint8_t QUEUE_LEN = 8;              // breaks waiting for their colour reading

Adafruit_TCS34725 tcs(TCS34725_INTEGRATIONTIME_24MS, TCS34725_GAIN_4X);
bool sensorOk = false;

// Written by the interrupt, read by loop().
volatile unsigned long breaks[QUEUE_LEN];  // millis() of each counted break
volatile uint8_t head = 0, tail = 0;
volatile uint8_t dropped = 0;              // breaks lost to a full queue
volatile unsigned long lastClearUs = 0;
volatile bool broken = false;

uint16_t seq = 0;
uint16_t lineNo = 0;                      // the next line's number: 0 is the boot banner
unsigned long balls = 0;
unsigned long nextBeat = 0;
char rx[24];
uint8_t rxLen = 0;

// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF; "123456789" gives 0x29B1.
uint16_t crc16(const char *p) {
  uint16_t crc = 0xFFFF;
  for (; *p; ++p) {
    crc ^= (uint16_t)(uint8_t)*p << 8;
    for (uint8_t i = 0; i < 8; ++i) crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
  }
  return crc;
}

// One line: "$<kind>,<n>,<fields>*CCCC\r\n".
void sendLine(const char *kind, const char *fields) {
  char body[80];
  snprintf(body, sizeof body, "%s,%u,%s", kind, lineNo++, fields);
  char end[8];
  snprintf(end, sizeof end, "*%04X\r\n", crc16(body));
  Serial.write('$');
  Serial.print(body);
  Serial.print(end);
}

void sendVersion() {
  char fields[48];
  snprintf(fields, sizeof fields, "%s,%u", FIRMWARE, PROTOCOL);
  sendLine("CBVER", fields);
  if (!sensorOk) sendLine("CBERR", "NOSENSOR,TCS34725 not found");
}

void onBeamChange() {
  unsigned long now = micros();
  if (digitalRead(BEAM_PIN) == LOW) {
    // Count on the breaking edge unless the beam was clear only briefly: rim chatter.
    if (!broken && now - lastClearUs >= CLEAR_US) {
      uint8_t next = (head + 1) % QUEUE_LEN;
      if (next != tail) {
        breaks[head] = millis();
        head = next;
      } else if (dropped < 255) {
        dropped++;  // loop() skips its seq number: the host sees the gap and counts it
      }
    }
    broken = true;
  } else {
    broken = false;
    lastClearUs = now;
  }
}

void readHost() {
  while (Serial.available()) {
    char ch = Serial.read();
    if (ch == '\n' || ch == '\r') {
      rx[rxLen] = '\0';
      // The only request: "$CBGET,VER*HH" (protocol 1's form, which every board answers);
      // check its XOR checksum like any line.
      char *star = strchr(rx, '*');
      if (rx[0] == '$' && star && strlen(star) == 3) {
        uint8_t x = 0;
        for (char *p = rx + 1; p < star; ++p) x ^= (uint8_t)*p;
        if (strtoul(star + 1, NULL, 16) == x && strncmp(rx + 1, "CBGET,VER*", 10) == 0) {
          sendVersion();
        }
      }
      rxLen = 0;
    } else if (ch == '$' || rxLen < sizeof rx - 1) {
      if (ch == '$') rxLen = 0;  // a new line starts: drop any fragment
      rx[rxLen++] = ch;
    }
  }
}

void setup() {
  Serial.begin(115200);
  pinMode(BEAM_PIN, INPUT_PULLUP);
  sensorOk = tcs.begin();
  attachInterrupt(digitalPinToInterrupt(BEAM_PIN), onBeamChange, CHANGE);
  sendVersion();
  nextBeat = millis() + HEARTBEAT_MS;
}

void loop() {
  noInterrupts();
  uint8_t lost = dropped;
  dropped = 0;
  interrupts();
  seq += lost;
  balls += lost;
  while (tail != head) {
    noInterrupts();
    unsigned long t = breaks[tail];
    tail = (tail + 1) % QUEUE_LEN;
    interrupts();
    uint16_t r = 0, g = 0, b = 0, c = 0;
    if (sensorOk) {
      // getRawData returns the last finished integration, then waits one more (24 ms):
      // the first read is from before the ball, the second one saw the ball.
      tcs.getRawData(&r, &g, &b, &c);
      tcs.getRawData(&r, &g, &b, &c);
    }
    char fields[56];
    snprintf(fields, sizeof fields, "%u,%lu,%u,%u,%u,%u", seq, t, r, g, b, c);
    sendLine("CBBAL", fields);
    seq++;
    balls++;
  }
  readHost();
  if ((long)(millis() - nextBeat) >= 0) {
    char fields[32];
    snprintf(fields, sizeof fields, "%lu,%lu", millis(), balls);
    sendLine("CBHB", fields);
    nextBeat += HEARTBEAT_MS;
  }
}
