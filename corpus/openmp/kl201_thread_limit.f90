! kernlint-devices: xe-hpc xe-lp
! KL201 for OpenMP in free-form Fortran: parameters, macros and the SIMD model.
#define TEAM 1024
module limits
  implicit none
  integer, parameter :: W = 16, HUGE_TEAM = 2 * TEAM
contains
  subroutine spmd(a, n)
    integer, intent(in) :: n
    real :: a(n)
    integer :: i
    !$omp target teams distribute parallel do thread_limit(HUGE_TEAM) ! expect: KL201
    do i = 1, n
      a(i) = a(i) + 1.0
    end do
    !$omp target teams distribute parallel do &
    !$omp& thread_limit(TEAM) ! expect[xe-lp]: KL201
    do i = 1, n
      a(i) = a(i) + 1.0
    end do
  end subroutine spmd

  subroutine simd_model(a, n)
    integer, intent(in) :: n
    real :: a(0:n-1)
    integer :: i, v
    !$omp target teams distribute parallel do thread_limit(TEAM) ! expect: KL201
    do i = 0, n - 1, W
      !$omp simd simdlen(W)
      do v = 0, W - 1
        a(i + v) = a(i + v) + 1.0
      end do
    end do
    !$omp target teams distribute parallel do thread_limit(TEAM / W) ! expect[xe-lp]: KL201
    do i = 0, n - 1, W
      !$omp simd simdlen(W)
      do v = 0, W - 1
        a(i + v) = a(i + v) + 1.0
      end do
    end do
  end subroutine simd_model
end module limits
