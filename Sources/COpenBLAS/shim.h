#ifndef NOISETAG_COPENBLAS_SHIM_H
#define NOISETAG_COPENBLAS_SHIM_H
#include <cblas.h>

/* The few LAPACK routines the decoder uses, with their Fortran ABI (every
   argument by pointer, column-major). libopenblas carries the symbols; we
   declare them here rather than depend on lapacke.h. */

/* Generalised symmetric-definite eigenproblem A x = lambda B x. */
void dsygv_(const int *itype, const char *jobz, const char *uplo, const int *n,
            double *a, const int *lda, double *b, const int *ldb, double *w,
            double *work, const int *lwork, int *info);

/* Cholesky factorisation of a symmetric positive-definite matrix. */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

/* Solve A X = B with A's Cholesky factor from dpotrf_. */
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a,
             const int *lda, double *b, const int *ldb, int *info);
#endif
