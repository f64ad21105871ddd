! KL706 in free-form Fortran: an array and a scalar mapped but unused; a call the array is passed to
! and a module variable a called procedure may change are uses the analysis cannot see.
module unused_maps
  implicit none
  real :: bias(128)
contains
  subroutine accumulate(a, b, c, n)
    integer, intent(in) :: n
    integer, intent(in) :: a(n), b(n)
    integer, intent(inout) :: c(n)
    integer :: i
    !$omp target teams distribute parallel do map(to: a, b) map(tofrom: c) ! expect: KL706
    do i = 1, n
      c(i) = c(i) + a(i)
    end do
  end subroutine accumulate

  subroutine accumulate_fixed(a, c, n)
    integer, intent(in) :: n
    integer, intent(in) :: a(n)
    integer, intent(inout) :: c(n)
    integer :: i
    !$omp target teams distribute parallel do map(to: a) map(tofrom: c)
    do i = 1, n
      c(i) = c(i) + a(i)
    end do
  end subroutine accumulate_fixed

  subroutine region(u, scale, n)
    integer, intent(in) :: n
    real(kind=8), intent(inout) :: u(n)
    real(kind=8), intent(in) :: scale
    integer :: i
    !$omp target data map(tofrom: u) map(to: scale) ! expect: KL706
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = 2.0d0 * u(i)
    end do
    !$omp end target data
  end subroutine region

  subroutine unseen(x, n)
    integer, intent(in) :: n
    real, intent(inout) :: x(n)
    !$omp target map(tofrom: x)
    call smooth(x, n)
    !$omp end target
    !$omp target map(to: bias)
    call add_bias(n)
    !$omp end target
  end subroutine unseen
end module unused_maps
