// KL102 through functors, helper functions, templates, macros from a quoted header, #ifdef and
// submits nested in host lambdas.
#include <sycl/sycl.hpp>
#include <vector>
#include "kl103_sizes.hpp"

// Functor kernels: the accessor reaches the kernel through a member.
struct Gather {
  sycl::accessor<float, 1, sycl::access_mode::read_write> table;
  sycl::accessor<float, 1, sycl::access_mode::write> out;
  void operator()(sycl::id<1> i) const { out[i] = table[(i[0] * 7) % kSamples]; }
};

struct Accumulate {
  sycl::accessor<float, 1, sycl::access_mode::read_write> acc;
  sycl::accessor<float, 1, sycl::access_mode::read> in;
  void operator()(sycl::id<1> i) const { acc[i] += in[i]; }
};

class Normalise {
 public:
  Normalise(sycl::accessor<double, 1, sycl::access_mode::read_write> v, double s) : values_(v), scale_(s) {}
  void operator()(sycl::id<1> i) const { total_ += values_[i] * scale_; }

 private:
  sycl::accessor<double, 1, sycl::access_mode::read_write> values_;
  double scale_;
  mutable double total_ = 0;
};

void functors(sycl::queue &q, std::vector<float> &t, std::vector<float> &o, std::vector<double> &d) {
  sycl::buffer<float, 1> tb(t.data(), sycl::range<1>(kSamples));
  sycl::buffer<float, 1> ob(o.data(), sycl::range<1>(kSamples));
  sycl::buffer<double, 1> db(d.data(), sycl::range<1>(kSamples));
  q.submit([&](sycl::handler &h) {
    sycl::accessor<float, 1, sycl::access_mode::read_write> table(tb, h); // expect: KL102
    sycl::accessor<float, 1, sycl::access_mode::write> out(ob, h, sycl::no_init);
    h.parallel_for(sycl::range<1>(kSamples), Gather{table, out});
  });
  q.submit([&](sycl::handler &h) {
    Accumulate k{ob.get_access<sycl::access_mode::read_write>(h), tb.get_access<sycl::access_mode::read>(h)};
    h.parallel_for(sycl::range<1>(kSamples), k);
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor<double, 1, sycl::access_mode::read_write> v(db, h); // expect: KL102
    Normalise n(v, 0.5);
    h.parallel_for(sycl::range<1>(kSamples), n);
  });
}

// Helpers defined in this file: a reading one, a writing one, one that forwards to another.
float dot3(const sycl::accessor<float, 1, sycl::access_mode::read_write> &a, size_t i) {
  return a[3 * i] + a[3 * i + 1] + a[3 * i + 2];
}
void store(sycl::accessor<float, 1, sycl::access_mode::read_write> a, size_t i, float v) { a[i] = v; }
template <typename A>
float forward_read(A a, size_t i) { return dot3(a, i); }

void helpers(sycl::queue &q, sycl::buffer<float, 1> &xyz, sycl::buffer<float, 1> &scratch,
             sycl::buffer<float, 1> &len) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor p(xyz, h, sycl::read_write); // expect: KL102
    sycl::accessor s(scratch, h, sycl::read_write);
    sycl::accessor l(len, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(kSamples / 3), [=](sycl::id<1> i) {
      float d = forward_read(p, i[0]);
      store(s, i[0], d);
      l[i] = d;
    });
  });
}

// Templates and macros: the element type and the 2-D extent come from template arguments and the header.
template <typename T>
void transpose(sycl::queue &q, sycl::buffer<T, 2> &in, sycl::buffer<T, 2> &out) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(in, h, sycl::read_write); // expect: KL102
    sycl::accessor b(out, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<2>(GRID_Y, GRID_X), [=](sycl::id<2> idx) {
      b[idx[1]][idx[0]] = a[idx];
    });
  });
}
template void transpose<float>(sycl::queue &, sycl::buffer<float, 2> &, sycl::buffer<float, 2> &);

// Conditional compilation: both branches only read the accessor.
void reduce_rows(sycl::queue &q, sycl::buffer<float, 2> &m, sycl::buffer<float, 1> &rows) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor mat(m, h, sycl::read_write); // expect: KL102
    sycl::accessor r(rows, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(GRID_Y), [=](sycl::id<1> row) {
      float sum = 0.0f;
#ifdef USE_KAHAN
      float carry = 0.0f;
      for (int c = 0; c < GRID_X; ++c) {
        float y = mat[row[0]][c] - carry;
        float t = sum + y;
        carry = (t - sum) - y;
        sum = t;
      }
#else
      for (int c = 0; c < GRID_X; ++c) sum += mat[row[0]][c];
#endif
      r[row] = sum;
    });
  });
}

// Conditional compilation where one branch writes: not only read.
void maybe_clamp(sycl::queue &q, sycl::buffer<float, 1> &v) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(v, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
#if defined(CLAMP_NEGATIVE)
      a[i] = sycl::fmax(a[i], 0.0f);
#else
      (void)a[i];
#endif
    });
  });
}

// Submits nested in a host lambda that is called in a loop; buffers live outside the loop.
void pipeline(sycl::queue &q, sycl::buffer<float, 1> &state, sycl::buffer<float, 1> &coeffs, int steps) {
  auto step = [&](float dt) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor c(coeffs, h, sycl::read_write); // expect: KL102
      sycl::accessor s(state, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
        auto advance = [&](float x) { return x + dt * c[i]; };
        s[i] = advance(s[i]);
      });
    });
  };
  for (int k = 0; k < steps; ++k) step(0.01f);
}

// A kernel local shadows the accessor's name: kernlint cannot tell which one is used, so it is silent.
void shadowed(sycl::queue &q, sycl::buffer<int, 1> &b) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      int x = a[i];
      {
        int a[4] = {x, x, x, x};
        a[0] = 1;
        (void)a;
      }
    });
  });
}
