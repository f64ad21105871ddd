! Memory access patterns of OpenMP offload loops in Fortran: arrays are column-major, so the lane's
! index belongs first.
subroutine column_sums(a, s, n, m)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m)
  real(8), intent(out) :: s(n)
  integer :: i, k
  !$omp target teams distribute parallel do map(to: a) map(from: s)
  do i = 1, n
    s(i) = 0.0d0
    do k = 1, m
      s(i) = s(i) + a(i, k)
    end do
  end do
end subroutine column_sums

subroutine row_sums(a, s, n, m)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: s(n)
  integer :: i, k
  !$omp target teams distribute parallel do map(to: a) map(from: s)
  do i = 1, n
    s(i) = 0.0d0
    do k = 1, m
      s(i) = s(i) + a(k, i) ! expect: KL601
    end do
  end do
end subroutine row_sums

subroutine pairs(x, y, n)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: x(2 * n)
  real, intent(out) :: y(n)
  integer :: i
  !$omp target teams distribute parallel do map(to: x) map(from: y)
  do i = 1, n
    y(i) = x(2 * i - 1) * x(2 * i) ! expect: KL601
  end do
end subroutine pairs
