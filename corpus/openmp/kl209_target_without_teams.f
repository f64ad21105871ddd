C     KL209 in fixed-form Fortran: a combined target parallel do and
C     its fix with teams.
      SUBROUTINE AXPY1(N, A, X, Y)
      INTEGER N, I
      REAL A, X(N), Y(N)
C$OMP TARGET PARALLEL DO MAP(TO: X) MAP(TOFROM: Y)                     ! expect: KL209
      DO 10 I = 1, N
        Y(I) = A * X(I) + Y(I)
   10 CONTINUE
      END

      SUBROUTINE AXPY2(N, A, X, Y)
      INTEGER N, I
      REAL A, X(N), Y(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO: X) MAP(TOFROM: Y)
      DO 20 I = 1, N
        Y(I) = A * X(I) + Y(I)
   20 CONTINUE
      END
