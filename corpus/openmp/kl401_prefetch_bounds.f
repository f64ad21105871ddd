! KL401 in fixed-form Fortran: c/C/* comment lines, column-6 continuations of code and of
! directives, labelled DO loops, and a PARAMETER statement.
#define HINT 4
      SUBROUTINE SHIFT(DST, SRC, N)
      INTEGER N, I, K
      PARAMETER (K = 16)
      REAL SRC(N), DST(N)
C     the prefetch runs K elements ahead of the loop
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO
C$OMP&MAP(TO: SRC) MAP(FROM: DST)
      DO 10 I = 1, N
C$OMP PREFETCH DATA(HINT: SRC(I+K:I+K))                               ! expect: KL401
C$OMP PREFETCH DATA(HINT: SRC(I+K:I+K)) IF (I+K .LE. N)
*$OMP PREFETCH DATA(HINT: SRC(I:I))
         DST(I) = SRC(I) *
     &            2.0
   10 CONTINUE
      END

      SUBROUTINE SHIFT2(DST, SRC, N)
      INTEGER N, I
      REAL SRC(N), DST(N)
!$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO: SRC)
!$OMP&  MAP(FROM: DST)
      DO 20 I = 1, N
         DST(I) =
     &      SRC(I)
     &      + 1.0
!$OMP PREFETCH
!$OMP&  DATA(HINT:
!$OMP&       SRC(I+2:I+2))                                            ! expect: KL401
   20 CONTINUE
      END
