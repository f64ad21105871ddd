C     KL705 in fixed-form Fortran: an assumed-size array in a map clause.
      SUBROUTINE SCALE(N, S, X)
      INTEGER N, I
      REAL S, X(*)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TOFROM: X)               ! expect: KL705
      DO 10 I = 1, N
        X(I) = S * X(I)
   10 CONTINUE
      END

      SUBROUTINE SCALE2(N, S, X)
      INTEGER N, I
      REAL S, X(*)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TOFROM: X(1:N))
      DO 20 I = 1, N
        X(I) = S * X(I)
   20 CONTINUE
      END
