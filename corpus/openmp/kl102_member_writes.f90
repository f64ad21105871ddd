! Derived-type arrays written through a component are written: `tofrom` is right for them.
module particles
  implicit none
  type particle
    real :: x, density
  end type
contains
  subroutine densities(p, n, h)
    integer, intent(in) :: n
    real, intent(in) :: h
    type(particle), intent(inout) :: p(n)
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: p)
    do i = 1, n
      p(i)%density = h / (1.0 + p(i)%x * p(i)%x)
    end do
  end subroutine densities
end module particles
