! KL402-KL405 in fixed-form Fortran.
#define HINT_L1 4
      SUBROUTINE HINTS(OUT, INP, B, N)
      INTEGER N, I, J, U, NXT, NOHINT, W
      PARAMETER (NOHINT = 0, W = 16)
      REAL INP(N), OUT(N), B(N)
      REAL ACC
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO: INP, B)
C$OMP&   MAP(FROM: OUT)
      DO 10 I = 1, N
C$OMP PREFETCH DATA(NOHINT: INP(I:I))                                  ! expect: KL402
C$OMP PREFETCH DATA(5: INP(I:I))                                       ! expect: KL403
C$OMP PREFETCH DATA(HINT_L1: INP(I:I))
         ACC = 0.0
         DO 20 J = 1, N
            NXT = J + 1
C$OMP PREFETCH DATA(HINT_L1: B(NXT:NXT)) IF (NXT .LE. N)               ! expect: KL405
            ACC = ACC + B(J)
   20    CONTINUE
         OUT(I) = INP(I) + ACC
   10 CONTINUE
      END

      SUBROUTINE SIMDM(OUT, INP, N)
      INTEGER N, I, V, W
      PARAMETER (W = 16)
      REAL INP(0:N-1), OUT(0:N-1)
!$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO THREAD_LIMIT(64)
      DO I = 0, N-1, W
!$OMP SIMD SIMDLEN(W)
         DO V = 0, W-1
            OUT(I+V) = INP(I+V)
!$OMP PREFETCH DATA(HINT_L1: INP(I+V:I+V)) IF (I+V .LT. N)             ! expect: KL404
         ENDDO
!$OMP PREFETCH DATA(HINT_L1: INP(I+W:I+W)) IF (I+W .LT. N)
      ENDDO
      END
