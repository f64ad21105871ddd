! KL701 in Fortran: arrays used in a target region inside a time loop are mapped tofrom on every step.
module heat
  implicit none
contains
  subroutine march(t, tn, n, steps)
    integer, intent(in) :: n, steps
    real, intent(inout) :: t(n), tn(n)
    integer :: s, i
    do s = 1, steps
      !$omp target teams distribute parallel do ! expect: KL701
      do i = 2, n - 1
        tn(i) = 0.25 * (t(i - 1) + 2.0 * t(i) + t(i + 1))
      end do
      !$omp end target teams distribute parallel do
      !$omp target teams distribute parallel do map(to: tn) map(from: t) ! expect: KL701
      do i = 2, n - 1
        t(i) = tn(i)
      end do
      !$omp end target teams distribute parallel do
    end do
  end subroutine march

  subroutine march_resident(t, tn, n, steps)
    integer, intent(in) :: n, steps
    real, intent(inout) :: t(n), tn(n)
    integer :: s, i
    !$omp target data map(tofrom: t) map(alloc: tn)
    do s = 1, steps
      !$omp target teams distribute parallel do
      do i = 2, n - 1
        tn(i) = 0.25 * (t(i - 1) + 2.0 * t(i) + t(i + 1))
      end do
      !$omp end target teams distribute parallel do
      !$omp target teams distribute parallel do
      do i = 2, n - 1
        t(i) = tn(i)
      end do
      !$omp end target teams distribute parallel do
    end do
    !$omp end target data
  end subroutine march_resident

  ! Not reported: the host adds a source term to t between the regions.
  subroutine march_forced(t, n, steps)
    integer, intent(in) :: n, steps
    real, intent(inout) :: t(n)
    integer :: s, i
    do s = 1, steps
      !$omp target teams distribute parallel do
      do i = 2, n - 1
        t(i) = 0.5 * t(i)
      end do
      !$omp end target teams distribute parallel do
      t(1) = t(1) + 1.0
    end do
  end subroutine march_forced
end module heat
