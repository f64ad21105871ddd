! KL102 for OpenMP maps in free-form Fortran: whole arrays (declared bounds), array sections,
! whole-array assignment, target data regions, and near misses.
module maps_free
  implicit none
contains
  subroutine axpy(x, y, a, n)
    integer, intent(in) :: n
    real, intent(in) :: a
    real :: x(n), y(n)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: x) & ! expect: KL102
    !$omp& map(tofrom: y)
    do i = 1, n
      y(i) = a * x(i) + y(i)
    end do
  end subroutine axpy

  subroutine zero(z, n)
    integer, intent(in) :: n
    real :: z(0:n-1)
    integer :: i
    !$omp target teams distribute parallel do map(z) ! expect: KL102
    do i = 0, n - 1
      z(i) = 0.0
    end do
    !$omp end target teams distribute parallel do
  end subroutine zero

  subroutine whole(w, n)
    integer, intent(in) :: n
    real :: w(n)
    !$omp target map(tofrom: w) ! expect: KL102
    w = 1.0
    !$omp end target
  end subroutine whole

  subroutine region(u, v, n, steps)
    integer, intent(in) :: n, steps
    real :: u(n), v(n)
    integer :: i, s
    !$omp target data map(tofrom: u) & ! expect: KL102
    !$omp&            map(tofrom: v)
    do s = 1, steps
      !$omp target teams distribute parallel do
      do i = 1, n
        v(i) = v(i) + u(i)
      end do
    end do
    !$omp end target data
  end subroutine region

  subroutine near(p, q, r, n)
    integer, intent(in) :: n
    real :: p(n), q(n), r(n)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: p)
    do i = 1, n
      if (p(i) > 0.0) p(i) = 0.0 ! expect: KL501
    end do
    !$omp target teams distribute parallel do map(tofrom: q)
    do i = 2, n
      q(i) = 1.0
    end do
    !$omp target map(tofrom: r)
    call smooth(r, n)
    !$omp end target
  end subroutine near
end module maps_free
