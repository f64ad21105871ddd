! KL406 in free-form Fortran.
subroutine s(a, n)
  integer :: n, i
  real :: a(n)
  !$omp target teams distribute parallel do map(tofrom: a(1:n) ! expect: KL406
  do i = 1, n
    a(i) = 0.0
  end do
  !$omp target teams distribute paralleldo map(tofrom: a)
  do i = 1, n
    a(i) = a(i) + 1.0
  end do
  !$omp enddo
  !$ompx not a directive: `!$ompx` is a comment
  !$omp targte data map(to: a) ! expect: KL406
  !$omp end target data
end subroutine
