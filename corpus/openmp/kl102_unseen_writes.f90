! KL102 for OpenMP maps in Fortran only when the region provably never writes the array: a store to a
! component, an included sweep, a pointer associated with the array, an element passed to a function
! (Fortran passes by reference) and a module array that a called procedure updates keep the map tofrom.
module grids
  implicit none
  integer, parameter :: npts = 8192
  real :: heat(npts)
  type :: cell
    real :: rho, e
  end type
contains
  subroutine cool(n)
    integer, intent(in) :: n
    heat(1:n) = 0.5 * heat(1:n)
  end subroutine

  real function scaled(x)
    real, intent(inout) :: x
    x = 2.0 * x
    scaled = x
  end function

  subroutine deposit(cells, n)
    type(cell) :: cells(n)
    integer :: n, i
    !$omp target teams distribute parallel do map(tofrom: cells)
    do i = 1, n
      cells(i)%e = cells(i)%e + cells(i)%rho
    end do
  end subroutine

  subroutine relax(u, n, sweeps)
    integer :: n, sweeps, s, i
    real :: u(n), edge
    !$omp target data map(tofrom: u)
    edge = u(1)
    do s = 1, sweeps
      include 'kl102_relax_sweep.fi'
    end do
    !$omp end target data
  end subroutine

  subroutine shift(u, n)
    integer :: n, i
    real, target :: u(n)
    real, pointer :: w(:)
    w => u
    !$omp target teams distribute parallel do map(tofrom: u)
    do i = 2, n
      w(i) = u(i - 1)
    end do
  end subroutine

  subroutine double_all(u, t, n)
    integer :: n, i
    real :: u(n), t(n)
    !$omp target teams distribute parallel do map(tofrom: u) map(from: t)
    do i = 1, n
      t(i) = scaled(u(i))
    end do
  end subroutine

  real function warmest(n)
    integer :: n
    !$omp target data map(tofrom: heat)
    warmest = heat(1)
    call cool(n)
    !$omp end target data
  end function

  subroutine norms(u, t, n)
    integer :: n, i
    real :: u(n), t(n)
    !$omp target teams distribute parallel do map(tofrom: u) map(from: t) ! expect: KL102
    do i = 1, n
      t(i) = sqrt(abs(u(i)))
    end do
  end subroutine
end module
