"""KL603: arrays of structs read one member at a time."""

from __future__ import annotations

from conftest import CORPUS
from kernlint.diagnostics import Severity
from rule_helpers import cost_at, run_engine

BODIES = CORPUS / "sycl" / "kl603_bodies.cpp"


def test_a_member_a_struct_apart_is_priced_in_sectors() -> None:
    # `Body` from the quoted header: 7 floats and an int, 32 bytes. A float a struct apart: 32 lanes
    # span 31 × 32 + 4 = 996 bytes, 32 sectors of 32 for the 4 the floats fill (H100); on Xe-HPC
    # 16 lines of 64 for 2.
    assert cost_at(BODIES, 16, "KL603", "h100").value == 32
    assert cost_at(BODIES, 16, "KL603").value == 16
    # `Interval` (a typedef'd struct of three doubles, 24 bytes): 31 × 24 + 8 = 752 bytes → 24 sectors for 8
    interval = cost_at(BODIES, 51, "KL603", "h100")
    assert interval.value == 24 and interval.figures["sectors_needed"] == 8


def test_the_message_counts_the_members_the_kernel_uses() -> None:
    [found] = run_engine(
        """
        #include <sycl/sycl.hpp>
        struct P { float x, y, z, w; double e; };
        void k(sycl::queue &q, const P *p, float *out, int n, int m) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            float acc = 0.0f;
            for (int s = 0; s < m; ++s) acc += p[i].y * s;
            out[i] = acc;
          });
        }
        """,
        "k.cpp",
        "h100",
        "KL603",
    )
    assert found.severity is Severity.WARNING
    assert "reads 4 bytes of each 24-byte `P`" in found.message
    assert "the kernel uses 4 of its 24 bytes through `p` (`y`)" in found.message
    assert "struct of arrays" in found.message


def test_whole_copies_broadcasts_and_unknown_layouts_say_nothing() -> None:
    assert not run_engine(
        """
        #include <sycl/sycl.hpp>
        #include <complex>
        struct P { float x, y; };
        struct Q { unsigned char r, g, b, a; };
        template <typename T> struct Box { T lo, hi; };
        void k(sycl::queue &q, const P *p, const Box<float> *b, const Q *c, P *out, float *f, int n) {
          q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
            P v = p[i];
            out[i] = v;
            f[i] = p[0].x + b[i].lo + c[i].r + c[i].g + c[i].b + c[i].a;
          });
        }
        """,
        "k.cpp",
        "h100",
        "KL603",
    )


def test_every_member_read_covers_the_padding_too() -> None:
    """`{char tag; float v;}` is 8 bytes with 3 of padding: both members read is the whole struct."""
    assert not run_engine(
        """
        #include <sycl/sycl.hpp>
        struct T { char tag; float v; };
        void k(sycl::queue &q, const T *t, float *out, int n) {
          q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
            out[i] = t[i].tag ? t[i].v : 0.0f;
          });
        }
        """,
        "k.cpp",
        "h100",
        "KL603",
    )


def _kl603(code: str) -> list:
    return run_engine(code, "k.cpp", "h100", "KL603")


def test_an_element_used_where_its_members_cannot_be_seen_counts_as_used_whole() -> None:
    # a 4-byte pixel read member by member and rewritten through a method: the kernel moves every byte,
    # one word a lane; a struct of arrays would not fetch less
    pixels = """
        #include <sycl/sycl.hpp>
        struct Pixel {
          unsigned char b, g, r, a;
          void set(unsigned char v) { b = g = r = a = v; }
        };
        void k(sycl::queue &q, Pixel *p, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            const float v = 0.3f * p[i].r + 0.59f * p[i].g + 0.11f * p[i].b;
            p[i].set((unsigned char)v);
          });
        }
        """
    assert _kl603(pixels) == []
    assert len(_kl603(pixels.replace("p[i].set((unsigned char)v);", "p[i].a = (unsigned char)v * 0;"))) == 0
    [partly] = _kl603(pixels.replace("p[i].set((unsigned char)v);", "p[i].r = (unsigned char)v;"))
    assert partly.evidence["repeats"] == 3  # r, g, b read and r written: one finding for the array in the kernel
    # the element's address handed on: the members read through it are unseen, so no share is claimed
    particles = """
        #include <sycl/sycl.hpp>
        struct Particle { double x, v; bool alive; };
        void push(Particle *q) { q->x += q->v; }
        void k(sycl::queue &q, Particle *p, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            if (p[i].alive) push(&p[i]);
          });
        }
        """
    [found] = _kl603(particles)
    assert "`p[i].alive` reads 1 bytes of each 24-byte `Particle`" in found.message
    assert "of its 24 bytes" not in found.message and "the kernel uses the whole element" in found.message
    assert found.severity == Severity.INFO  # the whole element moves: only sector lookups would be saved
    [partial] = _kl603(particles.replace("push(&p[i]);", "p[i].x += 1.0;"))  # alive and x: one finding
    assert "the kernel uses 9 of its 24 bytes through `p` (`alive`, `x`)" in partial.message
