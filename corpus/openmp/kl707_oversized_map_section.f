C     KL707 in fixed-form Fortran: the whole of X and Y is mapped, the
C     loop uses the first 100 elements of 1000.
      SUBROUTINE PART(X, Y)
      INTEGER I
      REAL X(1000), Y(1000)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO: X) MAP(FROM: Y)      ! expect: KL707, KL707
      DO 10 I = 1, 100
        Y(I) = X(I) + 1.0
   10 CONTINUE
      END
