! KL401 in free-form Fortran: parameters and fpp macros in bounds and hints, declared array bounds,
! and directives continued over lines (findings sit on the line holding the prefetched item).
#define HINT 4
module prefetch_free
  implicit none
  integer, parameter :: AHEAD = 8, BLK = 2**5
contains
  subroutine shift(dst, src, n)
    integer, intent(in) :: n
    real, intent(in) :: src(n)
    real, intent(out) :: dst(n)
    integer :: i
    !$omp target teams distribute parallel do map(to: src) map(from: dst)
    do i = 1, n
      dst(i) = 0.5 * &
               src(i) + &   ! a continued statement before the findings
               0.5
      !$omp prefetch data(HINT: src(i:i))
      !$omp prefetch data(HINT: src(i+AHEAD:i+AHEAD)) ! expect: KL401
      !$omp prefetch data(HINT: src(i+AHEAD:i+AHEAD)) if (i + AHEAD <= n)
      !$omp prefetch data(HINT: src(i-1:i-1)) ! expect: KL401
      dst(i) = src(i)
    end do
  end subroutine shift

  subroutine halo(dst, src, n)
    integer, intent(in) :: n
    real, intent(in) :: src(0:n+1)
    real, intent(out) :: dst(0:n+1)
    integer :: i
    !$omp target teams distribute parallel do map(to: src) map(from: dst(1:n))
    do i = 1, n
      !$omp prefetch data(HINT: src(i-1:i-1))
      !$omp prefetch data(HINT: src(i+1:i+1))
      !$omp prefetch &
      !$omp&   data(HINT: &
      !$omp&        src(i+2:i+2)) ! expect: KL401
      dst(i) = src(i-1) + src(i) + src(i+1)
    end do
  end subroutine halo

  subroutine blocks(a, n)
    integer, intent(in) :: n
    real, intent(inout) :: a(0:n-1)
    integer :: b, k, nxt
    !$omp target teams distribute parallel do private(nxt)
    do b = 0, n - 1, BLK
      do k = 0, BLK - 1
        nxt = b + BLK + k
        if (nxt .lt. n) then
          !$omp prefetch data(HINT: a(nxt:nxt))
        end if
        !$omp prefetch data(HINT: a(b+k:b+k))
        a(b + k) = 2.0 * a(b + k)
      end do
    end do
  end subroutine blocks
end module prefetch_free
