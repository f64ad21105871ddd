! A preprocessed Fortran source whose build completes the directives with macros
! (-DGPU_SCHEDULE='schedule(static,1)' -DTEAMS_CLAUSE='num_teams(512)'): words in capitals that stand
! out from a directive written in lower case are the build's, not mistakes. A misspelling in lower
! case, or in a directive written all in capitals, is still one.
subroutine axpy_steps(a, x, y, n)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: a, x(n)
  real, intent(inout) :: y(n)
  integer :: i
  !$omp target teams distribute parallel do GPU_SCHEDULE map(to: x) map(tofrom: y)
  do i = 1, n
    y(i) = y(i) + a * x(i)
  end do
  !$omp target teams distribute parallel do TEAMS_CLAUSE GPU_SCHEDULE map(to: x) map(tofrom: y)
  do i = 1, n
    y(i) = 0.5 * y(i) + x(i)
  end do
  !$omp target teams distribute parallel do schedul(static) map(to: x) map(tofrom: y) ! expect: KL406 (warning)
  do i = 1, n
    y(i) = y(i) - x(i)
  end do
  !$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO SCHEDUL(STATIC) MAP(TO: X) MAP(TOFROM: Y) ! expect: KL406 (warning) ! x is never used: expect: KL706
  do i = 1, n
    y(i) = y(i) * 2.0
  end do
end subroutine axpy_steps
