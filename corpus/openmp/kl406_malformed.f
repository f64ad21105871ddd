! KL406 in fixed-form Fortran: the error is in the continuation line.
      SUBROUTINE S(A, N)
      INTEGER N, I
      REAL A(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO
C$OMP&  MAP(TOFROM: A) THREAD_LIMIT()                                 ! expect: KL406
      DO 10 I = 1, N
         A(I) = 0.0
   10 CONTINUE
      END
