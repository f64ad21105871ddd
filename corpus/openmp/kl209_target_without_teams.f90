! KL209 in free-form Fortran: `target parallel do`, a `parallel do` and a `parallel`/`do` pair inside
! a target region run one team; `teams` on the combined construct or inside the region fixes it.
module one_team
  implicit none
contains
  subroutine scale(x, y, a, n)
    integer, intent(in) :: n
    real, intent(in) :: x(n), a
    real, intent(out) :: y(n)
    integer :: i
    !$omp target parallel do map(to: x) map(from: y) ! expect: KL209
    do i = 1, n
      y(i) = a * x(i)
    end do
    !$omp end target parallel do
  end subroutine scale

  subroutine shift(u, v, n)
    integer, intent(in) :: n
    real(kind=8), intent(in) :: u(0:n)
    real(kind=8), intent(out) :: v(0:n)
    integer :: i
    !$omp target map(to: u) map(from: v) ! expect: KL209
    !$omp parallel do
    do i = 0, n
      v(i) = 2.0d0 * u(i)
    end do
    !$omp end parallel do
    !$omp end target
  end subroutine shift

  subroutine gemv(a, x, y, m, n)
    integer, intent(in) :: m, n
    real, intent(in) :: a(m, n), x(n)
    real, intent(inout) :: y(m)
    integer :: i, j
    !$omp target map(to: a, x) map(tofrom: y) ! expect: KL209
    !$omp parallel private(j)
    !$omp do
    do i = 1, m
      do j = 1, n
        y(i) = y(i) + a(i, j) * x(j)
      end do
    end do
    !$omp end do
    !$omp end parallel
    !$omp end target
  end subroutine gemv

  subroutine scale_teams(x, y, a, n)
    integer, intent(in) :: n
    real, intent(in) :: x(n), a
    real, intent(out) :: y(n)
    integer :: i
    !$omp target teams distribute parallel do map(to: x) map(from: y)
    do i = 1, n
      y(i) = a * x(i)
    end do
    !$omp end target teams distribute parallel do
  end subroutine scale_teams

  subroutine gemv_teams(a, x, y, m, n)
    integer, intent(in) :: m, n
    real, intent(in) :: a(m, n), x(n)
    real, intent(inout) :: y(m)
    integer :: i, j
    !$omp target map(to: a, x) map(tofrom: y)
    !$omp teams distribute parallel do private(j)
    do i = 1, m
      do j = 1, n
        y(i) = y(i) + a(i, j) * x(j)
      end do
    end do
    !$omp end teams distribute parallel do
    !$omp end target
  end subroutine gemv_teams
end module one_team
