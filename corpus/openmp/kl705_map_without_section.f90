! KL705 in free-form Fortran: assumed-size dummy arrays (`dimension(*)`, `a(n, *)`) have no upper bound
! to map up to; explicit sections, explicit-shape and assumed-shape arrays are fine.
module no_extent
  implicit none
contains
  subroutine add(a, b, c, n)
    integer, intent(in) :: n
    integer, dimension(*), intent(in) :: a, b
    integer, dimension(*), intent(out) :: c
    integer :: i
    !$omp target teams distribute parallel do map(to: a, b) map(from: c) ! expect: KL705, KL705, KL705
    do i = 1, n
      c(i) = a(i) + b(i)
    end do
  end subroutine add

  subroutine add_sections(a, b, c, n)
    integer, intent(in) :: n
    integer, dimension(*), intent(in) :: a, b
    integer, dimension(*), intent(out) :: c
    integer :: i
    !$omp target teams distribute parallel do map(to: a(1:n), b(1:n)) map(from: c(1:n))
    do i = 1, n
      c(i) = a(i) + b(i)
    end do
  end subroutine add_sections

  subroutine columns(m, x, n)
    integer, intent(in) :: n
    real(kind=8), intent(inout) :: m(n, *)
    real(kind=8), intent(in) :: x(:)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: m(1:n, 2:)) map(to: x) ! expect: KL705
    do i = 1, n
      m(i, 2) = m(i, 2) * x(i)
    end do
  end subroutine columns

  subroutine columns_fixed(m, x, n, k)
    integer, intent(in) :: n, k
    real(kind=8), intent(inout) :: m(n, k)
    real(kind=8), intent(in) :: x(:)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: m) map(to: x)
    do i = 1, n
      m(i, 2) = m(i, 2) * x(i)
    end do
  end subroutine columns_fixed
end module no_extent
