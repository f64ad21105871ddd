! N-body force kernel in fixed-form Fortran (preprocessed with -fpp), in the shape of the guide's
! Fortran kernel: parallel do over i, tiles of b over j and u, a guarded prefetch of the next tile
! for one element in sixteen. No findings.
#define WG_SIZE 1024
#define HINT_L1_L2 4
#define TILE 64
      module nbody_kernels
      contains
      subroutine nbody_forces(forces, pos, other, n1, n2)
      implicit none
      integer n1, n2
      real pos(0:n1-1), other(0:n2-1), forces(0:n1-1)
      real acc, stage(0:TILE-1), d, r
      integer i, j, u, ahead
      real soft
      parameter (soft=0.01)
!$omp target teams distribute parallel do thread_limit(WG_SIZE)
!$omp& private(i,acc,j,u,stage,ahead,d,r)
      do i = 0, n1-1
         acc = 0.0
         do j = 0, n2-1, TILE
c           stage the current tile
            do u = 0, TILE-1
               stage(u) = other(j+u)
#ifdef PREFETCH
               ahead = j + TILE + u
               if (mod(ahead,16).eq.0) then
!$omp prefetch data(HINT_L1_L2:other(ahead:ahead))if(ahead<n2)
               endif
#endif
            enddo
!DIR$ unroll(TILE)
            do u = 0, TILE-1
               d = stage(u) - pos(i)
               r = 1.0 / sqrt(d*d + soft)
               acc = acc + (r*r*r)*d
            enddo
         enddo
         forces(i) = acc*0.23
      enddo
      end subroutine
      end module
