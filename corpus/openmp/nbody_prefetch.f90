! The N-body kernel in free-form Fortran: guarded prefetch (no finding) in one subroutine, the
! unguarded one in the other.
#define WG_SIZE 1024
#define HINT_L1_L2 4
#define TILE 64
module nbody_free
contains
  subroutine forces_guarded(forces, pos, other, n1, n2)
    implicit none
    integer, intent(in) :: n1, n2
    real, intent(in) :: pos(0:n1-1), other(0:n2-1)
    real, intent(out) :: forces(0:n1-1)
    real :: acc, stage(0:TILE-1), d
    integer :: i, j, u, ahead
    !$omp target teams distribute parallel do thread_limit(WG_SIZE) &
    !$omp private(i, acc, j, u, stage, ahead, d)
    do i = 0, n1 - 1
      acc = 0.0
      do j = 0, n2 - 1, TILE
        do u = 0, TILE - 1
          stage(u) = other(j + u)
          ahead = j + TILE + u
          if (mod(ahead, 16) == 0) then
            !$omp prefetch data(HINT_L1_L2: other(ahead:ahead)) &
            !$omp& if (ahead < n2)
          end if
        end do
        do u = 0, TILE - 1
          d = stage(u) - pos(i)
          acc = acc + d
        end do
      end do
      forces(i) = acc * 0.23
    end do
  end subroutine forces_guarded

  subroutine forces_unguarded(forces, pos, other, n1, n2)
    implicit none
    integer, intent(in) :: n1, n2
    real, intent(in) :: pos(0:n1-1), other(0:n2-1)
    real, intent(out) :: forces(0:n1-1)
    real :: acc, stage(0:TILE-1)
    integer :: i, j, u, ahead
    !$omp target teams distribute parallel do thread_limit(WG_SIZE) &
    !$omp& private(i, acc, j, u, stage, ahead)
    do i = 0, n1 - 1
      acc = 0.0
      do j = 0, n2 - 1, TILE
        do u = 0, TILE - 1
          stage(u) = other(j + u)
          ahead = j + TILE + u
          if (mod(ahead, 16) == 0) then
            !$omp prefetch data(HINT_L1_L2: other(ahead:ahead)) ! expect: KL401
          end if
        end do
        do u = 0, TILE - 1
          acc = acc + stage(u) - pos(i)
        end do
      end do
      forces(i) = acc * 0.23
    end do
  end subroutine forces_unguarded
end module nbody_free
