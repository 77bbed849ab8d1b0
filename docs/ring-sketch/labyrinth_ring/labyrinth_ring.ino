// LED ring for the Labyrinth kiosk: line protocol version 2.
// The protocol is described in docs/ring-protocol.md.
//
// Hardware: a ring (or strip) of WS2812B / "NeoPixel" LEDs, data line on
// DATA_PIN through a 330 ohm resistor, 5 V and ground from a supply that can
// feed all LEDs (not from the board's 5 V pin for more than a few LEDs).
// Library: "Adafruit NeoPixel" (Arduino IDE: Tools > Manage Libraries).
//
// Boards with native USB (Pro Micro / Leonardo, Raspberry Pi Pico, ESP32-S2/S3)
// are the best choice. On an Uno or Nano, bytes arriving while the LEDs are
// being updated can be lost; the sketch redraws only when the picture changes
// or an animation runs, and the kiosk resends its picture every 2 seconds.

#include <Adafruit_NeoPixel.h>

const uint8_t DATA_PIN = 6;
const uint16_t LED_COUNT = 24;          // must match led_count in the kiosk config
const unsigned long BAUD = 115200;      // must match baud in the kiosk config
const uint8_t PROTOCOL_VERSION = 2;

Adafruit_NeoPixel ring(LED_COUNT, DATA_PIN, NEO_GRB + NEO_KHZ800);

// The picture asked for.
enum Mode { MODE_OFF, MODE_SEG, MODE_CELEBRATE, MODE_IDLE };
Mode mode = MODE_OFF;
uint16_t segStart = 0, segCount = 0;
uint32_t colour = 0;
uint8_t lit = 1, dark = 0;               // the pattern: lit LEDs, then dark ones, repeated

// A flash runs on top of the picture and ends by itself.
bool flashing = false;
unsigned long flashStart = 0, flashLength = 0;
uint32_t flashColour = 0;

bool dirty = true;                       // a still picture needs drawing
unsigned long lastFrame = 0;

char line[64];
uint8_t lineLength = 0;
bool lineTooLong = false;

void greet() {
  Serial.print(F("RING "));
  Serial.print(PROTOCOL_VERSION);
  Serial.print(' ');
  Serial.println(LED_COUNT);
}

void setup() {
  Serial.begin(BAUD);
  ring.begin();
  ring.setBrightness(160);
  ring.clear();
  ring.show();
  greet();                               // tells the kiosk we (re)started
}

// Reads `least` to `most` whole numbers from the rest of the line into `out`,
// each between 0 and `limit`. How many, or -1 when there are more, fewer or bad ones.
int readSome(long *out, uint8_t least, uint8_t most, long limit) {
  uint8_t i = 0;
  for (char *word = strtok(NULL, " "); word != NULL; word = strtok(NULL, " ")) {
    if (i == most) return -1;
    char *end;
    long value = strtol(word, &end, 10);
    if (*end != '\0' || value < 0 || value > limit) return -1;
    out[i++] = value;
  }
  return i >= least ? i : -1;
}

// Reads exactly `count` whole numbers (see readSome).
bool readNumbers(long *out, uint8_t count, long limit) {
  return readSome(out, count, count, limit) == count;
}

// The pattern after a colour (version 2): `k` numbers were read, the pattern's
// two are at `at` (none: `plainLit`, `plainDark`). False when it cannot be shown.
bool readPattern(long *n, int k, int at, uint8_t plainLit, uint8_t plainDark) {
  if (k == at) {
    lit = plainLit;
    dark = plainDark;
    return true;
  }
  if (k != at + 2 || n[at] < 1 || n[at] + n[at + 1] > 8) return false;
  lit = n[at];
  dark = n[at + 1];
  return true;
}

void handle(char *text) {
  char *command = strtok(text, " ");
  long n[7];
  int k;
  if (command == NULL) return;
  if (strcmp(command, "HELLO") == 0) {
    greet();
  } else if (strcmp(command, "BRI") == 0 && readNumbers(n, 1, 255)) {
    ring.setBrightness(n[0]);
    dirty = true;
  } else if (strcmp(command, "OFF") == 0 && readNumbers(n, 0, 0)) {
    mode = MODE_OFF;
    flashing = false;
    dirty = true;
  } else if (strcmp(command, "SEG") == 0 && (k = readSome(n, 5, 7, 65535)) > 0
             && n[0] < LED_COUNT && n[1] <= LED_COUNT && n[2] < 256 && n[3] < 256 && n[4] < 256
             && readPattern(n, k, 5, 1, 0)) {
    mode = MODE_SEG;
    segStart = n[0];
    segCount = n[1];
    colour = ring.Color(n[2], n[3], n[4]);
    dirty = true;
  } else if (strcmp(command, "FLASH") == 0 && readNumbers(n, 4, 60000)
             && n[0] < 256 && n[1] < 256 && n[2] < 256) {
    flashing = true;
    flashStart = millis();
    flashLength = n[3];
    flashColour = ring.Color(n[0], n[1], n[2]);
  } else if (strcmp(command, "CELEBRATE") == 0 && (k = readSome(n, 3, 5, 255)) > 0
             && readPattern(n, k, 3, 1, 2)) {
    mode = MODE_CELEBRATE;
    colour = ring.Color(n[0], n[1], n[2]);
  } else if (strcmp(command, "IDLE") == 0 && readNumbers(n, 0, 0)) {
    mode = MODE_IDLE;
  } else {
    Serial.print(F("ERR cannot use: "));
    Serial.println(command);
  }
}

void drawPicture(unsigned long now) {
  ring.clear();
  if (mode == MODE_SEG) {
    for (uint16_t i = 0; i < segCount; i++) {
      if (i % (lit + dark) < lit) ring.setPixelColor((segStart + i) % LED_COUNT, colour);
    }
  } else if (mode == MODE_CELEBRATE) {
    uint16_t step = now / 100;                       // a running chase of the pattern
    for (uint16_t i = 0; i < LED_COUNT; i++) if ((i + step) % (lit + dark) < lit) ring.setPixelColor(i, colour);
  } else if (mode == MODE_IDLE) {
    uint16_t drift = (now % 12000UL) * 65536UL / 12000UL;   // once round in 12 s
    for (uint16_t i = 0; i < LED_COUNT; i++) {
      uint16_t hue = drift + (uint32_t)i * 65536UL / LED_COUNT;
      ring.setPixelColor(i, ring.gamma32(ring.ColorHSV(hue, 255, 150)));
    }
  }
}

void render(unsigned long now) {
  if (flashing && now - flashStart >= flashLength) {
    flashing = false;                                 // back to the picture
    dirty = true;
  }
  if (flashing) {
    bool on = ((now - flashStart) / 100) % 2 == 0;    // 100 ms on, 100 ms off
    ring.fill(on ? flashColour : 0);
  } else if (dirty || mode == MODE_CELEBRATE || mode == MODE_IDLE) {
    drawPicture(now);
  } else {
    return;                                           // nothing changed
  }
  dirty = false;
  ring.show();
}

void loop() {
  while (Serial.available() > 0) {
    char c = Serial.read();
    if (c == '\r') continue;
    if (c == '\n') {
      line[lineLength] = '\0';
      if (lineTooLong) Serial.println(F("ERR line too long"));
      else if (lineLength > 0) handle(line);
      lineLength = 0;
      lineTooLong = false;
    } else if (lineLength < sizeof(line) - 1) {
      line[lineLength++] = c;
    } else {
      lineTooLong = true;
    }
  }
  unsigned long now = millis();
  if (now - lastFrame >= 25) {                        // up to 40 frames a second
    lastFrame = now;
    render(now);
  }
}
