// Arrays of particles written through their members are written: `tofrom` is right for them. Only the
// array the region reads alone (`grid`, its members read) may be mapped `to`.
struct Particle {
  float x, y, z;
  float density, pressure;
};

struct Cell {
  float centre[3];
  float volume;
};

void densities(Particle *p, const Cell *grid, int n, int cells, float h) {
#pragma omp target teams distribute parallel for map(tofrom: p[0:n], grid[0:cells]) // expect: KL102 (warning)
  for (int i = 0; i < n; i++) {
    const Cell &c = grid[i % cells];
    const float dx = p[i].x - c.centre[0], dy = p[i].y - c.centre[1], dz = p[i].z - c.centre[2]; // expect: KL603
    const float d = c.volume / (h + dx * dx + dy * dy + dz * dz);
    p[i].density = d;
    p[i].pressure = 0.4f * d;
  }
}

void pressures(Particle *p, int n) {
#pragma omp target teams distribute parallel for map(tofrom: p[0:n])
  for (int i = 0; i < n; i++) {
    Particle *q = &p[i];
    q->pressure = q->density * q->density;
  }
}
