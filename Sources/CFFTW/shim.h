#ifndef NOISETAG_CFFTW_SHIM_H
#define NOISETAG_CFFTW_SHIM_H
#include <fftw3.h>
#endif
