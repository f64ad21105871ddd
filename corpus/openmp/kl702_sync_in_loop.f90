! KL702 for OpenMP offload in Fortran: a target update from per iteration that the host does not read.
subroutine smooth(field, n, steps)
  implicit none
  integer, intent(in) :: n, steps
  real, intent(inout) :: field(n)
  integer :: s, i
  !$omp target enter data map(to: field)
  do s = 1, steps
    !$omp target teams distribute parallel do
    do i = 2, n - 1
      field(i) = 0.5 * (field(i - 1) + field(i + 1))
    end do
    !$omp end target teams distribute parallel do
    !$omp target update from(field) ! expect: KL702
  end do
  !$omp target exit data map(from: field)
end subroutine smooth

! Needed: the host prints the field every step.
subroutine smooth_verbose(field, n, steps)
  implicit none
  integer, intent(in) :: n, steps
  real, intent(inout) :: field(n)
  integer :: s, i
  !$omp target enter data map(to: field)
  do s = 1, steps
    !$omp target teams distribute parallel do
    do i = 2, n - 1
      field(i) = 0.5 * (field(i - 1) + field(i + 1))
    end do
    !$omp end target teams distribute parallel do
    !$omp target update from(field)
    print *, s, field(n / 2)
  end do
  !$omp target exit data map(delete: field)
end subroutine smooth_verbose
