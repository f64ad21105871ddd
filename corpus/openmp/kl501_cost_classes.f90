! KL501 in Fortran ranks divergence by cost: one thread summing for the team and a heavy arm warn,
! a clamp is info, a leader that only publishes a value stays silent.
module cost_classes
  use omp_lib
  implicit none
  integer, parameter :: TEAM = 128
contains
  subroutine team_totals(x, totals, nteams)
    integer, intent(in) :: nteams
    real :: x(TEAM * nteams), totals(nteams)
    real :: part(TEAM), s
    integer :: t, k, g
    !$omp target teams num_teams(nteams) thread_limit(TEAM) map(to: x) map(from: totals) private(part)
    g = omp_get_team_num()
    !$omp parallel private(t, k, s)
    t = omp_get_thread_num()
    part(t + 1) = x(g * TEAM + t + 1)
    !$omp barrier
    if (t == 0) then ! expect: KL501
      s = 0.0
      do k = 1, TEAM
        s = s + part(k)
      end do
      totals(g + 1) = s
    end if
    if (t == 0) totals(g + 1) = totals(g + 1) * 0.5
    !$omp end parallel
    !$omp end target teams
  end subroutine team_totals

  subroutine shape(a, n)
    integer, intent(in) :: n
    real :: a(n), v
    integer :: i
    !$omp target teams distribute parallel do map(tofrom: a) private(v)
    do i = 1, n
      v = a(i)
      if (v < 0.0) v = 0.0 ! expect: KL501
      if (mod(i, 3) == 0) then ! expect: KL501
        v = v * v + 1.0
        v = v / (1.0 + a(i))
        v = v * 0.5 + a(i)
        v = v - a(i) * a(i)
        v = v * 2.0
        v = v + 3.0
      end if
      a(i) = v
    end do
  end subroutine shape
end module cost_classes
