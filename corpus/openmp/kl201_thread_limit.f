! kernlint-devices: xe-hpc xe-lp
! KL201 for OpenMP in fixed-form Fortran.
      SUBROUTINE TEAMS(A, N)
      INTEGER N, I, NT
      PARAMETER (NT = 3000)
      REAL A(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO
C$OMP&  THREAD_LIMIT(NT)                                               ! expect: KL201
      DO 10 I = 1, N
         A(I) = A(I) * 2.0
   10 CONTINUE
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO THREAD_LIMIT(512)
      DO 20 I = 1, N
         A(I) = A(I) * 2.0
   20 CONTINUE
      END
