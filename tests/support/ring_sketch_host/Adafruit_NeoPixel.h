// Stands in for the Arduino core and the Adafruit NeoPixel library, just
// enough for the ring sketch to compile and run on a PC in the tests.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#define F(text) (text)
#define NEO_GRB 0
#define NEO_KHZ800 0

static unsigned long fake_now = 0;
static unsigned long millis() { return fake_now; }

struct FakeSerial {
  std::deque<char> in;
  std::string out;
  void begin(unsigned long) {}
  int available() { return (int)in.size(); }
  int read() { char c = in.front(); in.pop_front(); return c; }
  void print(const char *s) { out += s; }
  void print(char c) { out += c; }
  void print(unsigned char v) { out += std::to_string(v); }   // as on Arduino: a number
  void print(int v) { out += std::to_string(v); }
  void print(unsigned int v) { out += std::to_string(v); }
  void print(long v) { out += std::to_string(v); }
  void print(unsigned long v) { out += std::to_string(v); }
  template <class T> void println(T v) { print(v); out += "\r\n"; }
};
static FakeSerial Serial;

struct Adafruit_NeoPixel {
  std::vector<uint32_t> pixels, shown;
  uint8_t brightness = 255;
  unsigned long shows = 0;
  Adafruit_NeoPixel(uint16_t n, uint8_t, int) : pixels(n, 0), shown(n, 0) {}
  void begin() {}
  void setBrightness(uint8_t b) { brightness = b; }
  void clear() { std::fill(pixels.begin(), pixels.end(), 0); }
  void fill(uint32_t c) { std::fill(pixels.begin(), pixels.end(), c); }
  void setPixelColor(uint16_t i, uint32_t c) { if (i < pixels.size()) pixels[i] = c; }
  void show() { shown = pixels; shows++; }
  static uint32_t Color(uint8_t r, uint8_t g, uint8_t b) { return ((uint32_t)r << 16) | ((uint32_t)g << 8) | b; }
  static uint32_t ColorHSV(uint16_t hue, uint8_t, uint8_t v) { return Color(hue >> 8, v, 255 - (hue >> 8)); }
  static uint32_t gamma32(uint32_t c) { return c; }
};
