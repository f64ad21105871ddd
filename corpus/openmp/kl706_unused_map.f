C     KL706 in fixed-form Fortran: W is mapped but never used.
      SUBROUTINE COPY(N, X, W, Y)
      INTEGER N, I
      REAL X(N), W(N), Y(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO: X, W) MAP(FROM: Y)   ! expect: KL706
      DO 10 I = 1, N
        Y(I) = X(I)
   10 CONTINUE
      END
