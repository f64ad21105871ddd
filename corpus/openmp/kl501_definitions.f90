! KL501 in Fortran offload code follows definitions, not names: a scalar reused after a divergent
! assignment is uniform again once reassigned.
module reuse
  implicit none
contains
  subroutine relax(a, w, n)
    integer, intent(in) :: n
    real :: a(n), w(n)
    integer :: i, k, c
    !$omp target teams distribute parallel do private(k, c) map(tofrom: a) map(to: w)
    do i = 1, n
      c = 0
      if (w(i) > 0.5) then ! expect: KL501
        c = mod(i, 4)
        a(i) = a(i) + c
      end if
      c = 3
      if (c > 2) a(i) = a(i) + 1.0
      do k = 1, 8
        if (k == c) a(i) = a(i) * 0.5
      end do
    end do
  end subroutine relax
end module reuse
