! KL703 in Fortran: an update from followed by an update to of the same, unchanged array.
subroutine exchange(u, n, steps)
  implicit none
  integer, intent(in) :: n, steps
  real, intent(inout) :: u(n)
  integer :: s, i
  !$omp target data map(tofrom: u)
  do s = 1, steps
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = u(i) * 0.5
    end do
    !$omp end target teams distribute parallel do
    !$omp target update from(u) ! expect: KL702
    !$omp target update to(u) ! expect: KL703
  end do
  !$omp end target data
end subroutine exchange

! Not reported: the host sets a boundary value before sending the array back.
subroutine exchange_boundary(u, n, steps)
  implicit none
  integer, intent(in) :: n, steps
  real, intent(inout) :: u(n)
  integer :: s, i
  !$omp target data map(tofrom: u)
  do s = 1, steps
    !$omp target teams distribute parallel do
    do i = 1, n
      u(i) = u(i) * 0.5
    end do
    !$omp end target teams distribute parallel do
    !$omp target update from(u)
    u(1) = 1.0
    !$omp target update to(u)
  end do
  !$omp end target data
end subroutine exchange_boundary
