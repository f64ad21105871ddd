! KL402-KL405 in free-form Fortran: hints from parameters and macros, a simd loop, and element sizes
! from declarations (real, real(8), double precision).
#define HINT_L1 4
module prefetch_hints
  implicit none
  integer, parameter :: NOHINT = 0, BADHINT = 3, TILE = 64, W = 16
  integer, parameter :: dp = 8
contains
  subroutine hints(out, inp, n)
    integer, intent(in) :: n
    real, intent(in) :: inp(n)
    real, intent(out) :: out(n)
    integer :: i
    !$omp target teams distribute parallel do map(to: inp) map(from: out)
    do i = 1, n
      !$omp prefetch data(inp(i:i)) ! expect: KL402
      !$omp prefetch data(NOHINT: inp(i:i)) ! expect: KL402
      !$omp prefetch data(BADHINT: inp(i:i)) ! expect: KL403
      !$omp prefetch data(HINT_L1: inp(i:i))
      !$omp prefetch data(2: inp(i:i))
      out(i) = inp(i)
    end do
  end subroutine hints

  subroutine tiles(out, b, d, n)
    integer, intent(in) :: n
    real, intent(in) :: b(0:n-1)
    real(dp), intent(in) :: d(0:n-1)
    real, intent(out) :: out(0:n-1)
    integer :: i, j, u, nxt
    real :: acc
    !$omp target teams distribute parallel do private(acc, nxt)
    do i = 0, n - 1
      acc = 0.0
      do j = 0, n - 1, TILE
        do u = 0, TILE - 1
          nxt = j + TILE + u
          !$omp prefetch data(HINT_L1: b(nxt:nxt)) if (nxt < n) ! expect: KL405
          if (mod(nxt, 16) == 0) then
            !$omp prefetch data(HINT_L1: b(nxt:nxt)) if (nxt < n)
          end if
          acc = acc + b(j + u)
        end do
        do u = 0, TILE - 1, 8
          !$omp prefetch data(HINT_L1: d(j+TILE+u:j+TILE+u)) if (j + TILE + u < n)
        end do
      end do
      out(i) = acc
    end do
  end subroutine tiles

  subroutine simd_model(out, inp, n)
    integer, intent(in) :: n
    real, intent(in) :: inp(0:n-1)
    real, intent(out) :: out(0:n-1)
    integer :: i, v
    !$omp target teams distribute parallel do thread_limit(1024 / W)
    do i = 0, n - 1, W
      !$omp simd simdlen(W)
      do v = 0, W - 1
        !$omp prefetch data(HINT_L1: inp(i+v:i+v)) if (i + v < n) ! expect: KL404
        out(i + v) = inp(i + v)
      end do
      !$omp end simd
      !$omp prefetch data(HINT_L1: inp(i+W:i+W)) if (i + W < n)
    end do
  end subroutine simd_model
end module prefetch_hints
