// Runs the ring sketch on a PC. Reads a script on stdin:
//   > TEXT    the host sends TEXT and a newline
//   + MS      time passes (loop() runs every millisecond)
//   ?         print what the device said since the last '?', and the LEDs
#include "Adafruit_NeoPixel.h"   // stands in for the Arduino core and the library
#include "../../../docs/ring-sketch/labyrinth_ring/labyrinth_ring.ino"
#include <iostream>

int main() {
  setup();
  std::string command;
  while (std::getline(std::cin, command)) {
    if (command.rfind("> ", 0) == 0) {
      for (char c : command.substr(2)) Serial.in.push_back(c);
      Serial.in.push_back('\n');
    } else if (command.rfind("+ ", 0) == 0) {
      unsigned long ms = std::stoul(command.substr(2));
      for (unsigned long i = 0; i < ms; i++) { fake_now++; loop(); }
    } else if (command == "?") {
      std::string said = Serial.out;
      for (char &c : said) if (c == '\r') c = ' ';
      for (char &c : said) if (c == '\n') c = '|';
      std::printf("SAID %s\nBRI %u\nLEDS", said.c_str(), ring.brightness);
      for (uint32_t p : ring.shown) std::printf(" %06x", p);
      std::printf("\n");
      Serial.out.clear();
    }
  }
  return 0;
}
