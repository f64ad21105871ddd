! KL501 for OpenMP offload in fixed-form Fortran.
      SUBROUTINE PARITY(A, N, M)
      INTEGER N, M, I, K
      REAL A(N)
C$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TOFROM: A)
      DO 10 I = 1, N
         IF (MOD(I, 2) .EQ. 0) THEN                                    ! expect: KL501
            A(I) = 0.0
         ENDIF
         IF (I .LE. M) A(I) = A(I) + 1.0
         DO 20 K = 1, M
            IF (MOD(K, 2) .EQ. 1) A(I) = A(I) + 1.0
   20    CONTINUE
         DO 30 K = 1,                                                  ! expect: KL501
     &             I
            A(I) = A(I) * 0.5
   30    CONTINUE
   10 CONTINUE
      END
