! KL707 in free-form Fortran: whole arrays mapped for a loop over half of them (known bounds, and an
! assumed shape against `size(x, 1) / 2`), a section twice the loop; the fixes map what is used.
module oversized
  implicit none
  integer, parameter :: NPTS = 4096
contains
  subroutine half_known(a, b)
    real(kind=8), intent(in) :: a(NPTS)
    real(kind=8), intent(out) :: b(NPTS)
    integer :: i
    !$omp target teams distribute parallel do map(to: a) map(from: b) ! expect: KL707, KL707
    do i = 1, NPTS / 2
      b(i) = 2.0d0 * a(i)
    end do
  end subroutine half_known

  subroutine half_assumed(x, y)
    integer, intent(in) :: x(:)
    integer, intent(inout) :: y(:)
    integer :: i
    !$omp target teams distribute parallel do map(to: x) map(tofrom: y) ! expect: KL707
    do i = 1, size(y, 1) / 2
      y(i) = y(i) + x(i)
    end do
  end subroutine half_assumed

  subroutine section_twice(u, n)
    integer, intent(in) :: n
    real, intent(inout) :: u(2 * n)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: u(1:2 * n)) ! expect: KL707
    do i = 1, n
      u(i) = u(i) * 0.5
    end do
  end subroutine section_twice

  subroutine half_fixed(a, b)
    real(kind=8), intent(in) :: a(NPTS)
    real(kind=8), intent(out) :: b(NPTS)
    integer :: i
    !$omp target teams distribute parallel do map(to: a(1:NPTS / 2)) map(from: b(1:NPTS / 2))
    do i = 1, NPTS / 2
      b(i) = 2.0d0 * a(i)
    end do
  end subroutine half_fixed

  subroutine whole_used(x, y)
    integer, intent(in) :: x(:)
    integer, intent(inout) :: y(:)
    integer :: i
    !$omp target teams distribute parallel do map(to: x) map(tofrom: y)
    do i = 1, size(y, 1)
      y(i) = y(i) + x(i)
    end do
  end subroutine whole_used
end module oversized
