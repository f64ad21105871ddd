! KL102 for Fortran maps whose region reads an array section only after a device loop has
! overwritten all of it: `tofrom` copies in contents nobody sees (map it `from`). Near misses: the
! initialising loop covers part of the section, is inside a host loop or an IF, or comes after a read.
module smoothing
  implicit none
contains
  subroutine smooth(u, f, n, sweeps)
    integer, intent(in) :: n, sweeps
    real, intent(inout) :: u(n)
    real, intent(in) :: f(n)
    integer :: i, s
    !$omp target data map(tofrom: u(1:n)) map(to: f(1:n)) ! expect: KL102
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = f(i)
    end do
    !$omp end target teams distribute parallel do
    do s = 1, sweeps
      !$omp target teams distribute parallel do
      do i = 2, n - 1
        u(i) = 0.5 * u(i) + 0.25 * (f(i - 1) + f(i + 1))
      end do
      !$omp end target teams distribute parallel do
    end do
    !$omp end target data
  end subroutine smooth

  subroutine near(u, f, n, sweeps, warm)
    integer, intent(in) :: n, sweeps
    logical, intent(in) :: warm
    real, intent(inout) :: u(n)
    real, intent(in) :: f(n)
    integer :: i, s
    ! Part of the section only.
    !$omp target data map(tofrom: u(1:n)) map(to: f(1:n))
    !$omp target teams distribute parallel do
    do i = 1, n - 1
      u(i) = f(i)
    end do
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = u(i) + f(i)
    end do
    !$omp end target data
    ! Under an IF: it may not run.
    !$omp target data map(tofrom: u(1:n)) map(to: f(1:n))
    if (warm) then
      !$omp target teams distribute parallel do
      do i = 1, n
        u(i) = f(i)
      end do
    end if
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = u(i) * 2.0
    end do
    !$omp end target data
    ! Inside a host loop that may run no iteration.
    !$omp target data map(tofrom: u(1:n)) map(to: f(1:n))
    do s = 1, sweeps
      !$omp target teams distribute parallel do
      do i = 1, n
        u(i) = f(i)
      end do
      !$omp target teams distribute parallel do
      do i = 1, n
        u(i) = u(i) + 1.0
      end do
    end do
    !$omp end target data
    ! Read before the loop that overwrites it.
    !$omp target data map(tofrom: u(1:n)) map(to: f(1:n))
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = f(i) - u(i)
    end do
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = f(i)
    end do
    !$omp end target data
  end subroutine near

  ! Each iteration of the construct's own loop resets its element and then accumulates into it.
  subroutine col_sums(s, a, n, m)
    integer, intent(in) :: n, m
    real, intent(inout) :: s(n)
    real, intent(in) :: a(m, n)
    integer :: i, j
    !$omp target teams distribute parallel do map(tofrom: s(1:n)) map(to: a) ! expect: KL102
    do i = 1, n
      s(i) = 0.0
      do j = 1, m
        s(i) = s(i) + a(j, i) ! expect: KL601
      end do
    end do
  end subroutine col_sums

  ! Silent: a CYCLE may skip the reset, so those columns add to the old sums.
  subroutine col_sums_near(s, a, n, m, skip)
    integer, intent(in) :: n, m
    real, intent(inout) :: s(n)
    real, intent(in) :: a(m, n)
    logical, intent(in) :: skip(n)
    integer :: i, j
    !$omp target teams distribute parallel do map(tofrom: s(1:n)) map(to: a, skip)
    do i = 1, n
      if (skip(i)) cycle ! expect: KL501
      s(i) = 0.0
      do j = 1, m
        s(i) = s(i) + a(j, i) ! expect: KL601
      end do
    end do
  end subroutine col_sums_near
end module smoothing
