! KL102 for OpenMP maps in fixed-form Fortran.
      SUBROUTINE COPY(A, B, N)
      INTEGER N, I
      REAL A(N), B(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO
C$OMP&  MAP(TOFROM: A)                                                 ! expect: KL102
C$OMP&  MAP(TOFROM: B)                                                 ! expect: KL102
      DO 10 I = 1, N
         B(I) = A(I)
   10 CONTINUE
      END

      SUBROUTINE BUMP(A, N)
      INTEGER N, I
      REAL A(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TOFROM: A)
      DO 20 I = 1, N
         A(I) = A(I) + 1.0
   20 CONTINUE
      END
