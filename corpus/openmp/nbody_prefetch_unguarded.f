! The fixed-form N-body kernel without the prefetch guard; the directive is continued over two
! lines, and the finding is reported on its first line.
#define WG_SIZE 1024
#define HINT_L1_L2 4
#define TILE 64
      subroutine nbody_forces(forces, pos, other, n1, n2)
      implicit none
      integer n1, n2
      real pos(0:n1-1), other(0:n2-1), forces(0:n1-1)
      real acc, stage(0:TILE-1), d
      integer i, j, u, ahead
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO THREAD_LIMIT(WG_SIZE)
C$OMP& PRIVATE(I,ACC,J,U,STAGE,AHEAD,D)
      DO I = 0, N1-1
         ACC = 0.0
         DO J = 0, N2-1, TILE
            DO U = 0, TILE-1
               STAGE(U) = OTHER(J+U)
               AHEAD = J + TILE + U
               IF (MOD(AHEAD,16).EQ.0) THEN
C$OMP PREFETCH DATA(HINT_L1_L2:
C$OMP&              OTHER(AHEAD:AHEAD))                       ! expect: KL401
               ENDIF
            ENDDO
            DO U = 0, TILE-1
               D = STAGE(U) - POS(I)
               ACC = ACC + D
            ENDDO
         ENDDO
         FORCES(I) = ACC*0.23
      ENDDO
      END
