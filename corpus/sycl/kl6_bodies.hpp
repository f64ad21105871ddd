// Particle layouts shared by the memory-access corpus cases.
#pragma once

struct Body {
  float x, y, z;
  float mass;
  float vx, vy, vz;
  int id;
};

typedef struct {
  double lo, hi;
  double weight;
} Interval;
