! KL501 in the module procedures a Fortran target region calls, followed one call level as for C:
! a flux limiter whose IF / ELSE IF chain tests the lane's own value, and a subroutine whose branch
! does. Silent: a procedure called only with values every lane shares, and one the host calls.
module transport
  implicit none
contains
  real function limiter(x, lo, hi)
    !$omp declare target
    real, intent(in) :: x, lo, hi
    if (x < lo) then ! expect: KL501
      limiter = lo
    else if (x > hi) then
      limiter = hi
    else
      limiter = x
    end if
  end function limiter

  subroutine upwind(q, u, flux)
    !$omp declare target
    real, intent(in) :: q, u
    real, intent(out) :: flux
    if (u > 0.0) then ! expect: KL501
      flux = u * q
    else
      flux = 0.0
    end if
  end subroutine upwind

  real function weight(mode)
    !$omp declare target
    integer, intent(in) :: mode
    if (mode == 1) then
      weight = 0.5
    else
      weight = 1.0
    end if
  end function weight

  subroutine clamp_host(x)
    real, intent(inout) :: x
    if (x > 1.0) x = 1.0
  end subroutine clamp_host

  subroutine advect(q, u, f, n, lo, hi, mode)
    integer, intent(in) :: n, mode
    real, intent(in) :: lo, hi
    real, intent(in) :: q(n), u(n)
    real, intent(out) :: f(n)
    real :: g
    integer :: i
    !$omp target teams distribute parallel do private(g) map(to: q, u) map(from: f)
    do i = 1, n
      call upwind(limiter(q(i), lo, hi), u(i), g)
      f(i) = weight(mode) * g
    end do
    call clamp_host(f(1))
  end subroutine advect
end module transport
