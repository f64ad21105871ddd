! KL501 in Fortran target regions: IF / ELSE IF chains on what each lane loads from its own
! element, however it is reached: a two-dimensional element indexed by the collapsed lane
! indices, a component of a derived-type element, a name ASSOCIATEd with an element, and a loop
! bound read from the lane's element. Silent: tests on values every lane shares.
module classify_cells
  implicit none
  type cell_t
    real :: density
    integer :: neighbours
  end type cell_t
contains
  subroutine threshold(a, b, nr, nc, t)
    integer, intent(in) :: nr, nc
    real, intent(in) :: t
    real, intent(in) :: a(nr, nc)
    real, intent(out) :: b(nr, nc)
    integer :: r, c
    !$omp target teams distribute parallel do collapse(2) map(to: a) map(from: b)
    do c = 1, nc
      do r = 1, nr
        if (a(r, c) > t) then ! expect: KL501
          b(r, c) = 1.0
        else if (a(r, c) < -t) then
          b(r, c) = -1.0
        else
          b(r, c) = 0.0
        end if
      end do
    end do
  end subroutine threshold

  subroutine by_density(cells, phase, n, lo, hi)
    integer, intent(in) :: n
    real, intent(in) :: lo, hi
    type(cell_t), intent(in) :: cells(n)
    integer, intent(out) :: phase(n)
    integer :: i, k
    !$omp target teams distribute parallel do map(to: cells) map(from: phase)
    do i = 1, n
      if (cells(i)%density < lo) then ! expect: KL501
        phase(i) = 0
      else if (cells(i)%density < hi) then
        phase(i) = 1
      else
        phase(i) = 2
      end if
      do k = 1, cells(i)%neighbours ! expect: KL501
        phase(i) = phase(i) + 4
      end do
    end do
  end subroutine by_density

  subroutine aliased(a, b, nr, nc, t)
    integer, intent(in) :: nr, nc
    real, intent(in) :: t
    real, intent(in) :: a(nr, nc)
    real, intent(out) :: b(nr, nc)
    integer :: r, c
    !$omp target teams distribute parallel do collapse(2) map(to: a) map(from: b)
    do c = 1, nc
      do r = 1, nr
        associate (x => a(r, c))
          if (x > t) then ! expect: KL501
            b(r, c) = x
          else if (x < -t) then
            b(r, c) = -x
          else
            b(r, c) = 0.0
          end if
        end associate
      end do
    end do
  end subroutine aliased

  ! Silent: the tests read values that are the same in every lane.
  subroutine shared_tests(a, b, nr, nc, t, mode)
    integer, intent(in) :: nr, nc, mode
    real, intent(in) :: t
    real, intent(in) :: a(nr, nc)
    real, intent(out) :: b(nr, nc)
    integer :: r, c
    !$omp target teams distribute parallel do collapse(2) map(to: a) map(from: b)
    do c = 1, nc
      do r = 1, nr
        if (mode == 1) then
          b(r, c) = a(r, c)
        else if (a(1, 1) > t) then
          b(r, c) = 2.0 * a(r, c)
        else
          b(r, c) = 0.0
        end if
      end do
    end do
  end subroutine shared_tests
end module classify_cells
