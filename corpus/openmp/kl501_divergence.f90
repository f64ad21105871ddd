! KL501 for OpenMP offload in free-form Fortran.
module diverge
  use omp_lib
  implicit none
  integer, parameter :: TILE = 32
contains
  subroutine parity(a, w, n, m)
    integer, intent(in) :: n, m
    real :: a(n), w(n)
    integer :: i, k, g
    !$omp target teams distribute parallel do map(tofrom: a) map(to: w)
    do i = 1, n
      if (mod(i, 2) == 0) then ! expect: KL501
        a(i) = 0.0
      else if (i > m) then
        a(i) = 1.0
      end if
      if (i <= m) a(i) = a(i) + 1.0
      do k = 1, m
        if (mod(k, 2) == 0) a(i) = a(i) + w(k)
      end do
      do k = 1, i ! expect: KL501
        a(i) = a(i) + 0.5
      end do
      if (w(i) > 0.0) a(i) = -a(i) ! expect: KL501
      g = iand(i, 7)
      select case (g) ! expect: KL501
      case (3)
        a(i) = 2.0 * a(i)
      end select
    end do
  end subroutine parity

  subroutine tiles(a, n)
    integer, intent(in) :: n
    real :: a(0:n-1)
    integer :: t
    !$omp target teams distribute parallel do map(tofrom: a)
    do t = 0, n - 1, TILE
      if (mod(t + TILE, 16) == 0) a(t) = 0.0
    end do
  end subroutine tiles

  subroutine threads(a, n)
    integer, intent(in) :: n
    real :: a(0:n-1)
    integer :: tid
    !$omp target teams map(tofrom: a)
    !$omp parallel private(tid)
    tid = omp_get_thread_num()
    if (btest(tid, 0)) a(tid) = 0.0 ! expect: KL501
    if (omp_get_team_num() == 0) a(0) = 1.0
    !$omp end parallel
    !$omp end target teams
  end subroutine threads
end module diverge
