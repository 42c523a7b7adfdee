#ifndef NOISETAG_CZEROMQ_SHIM_H
#define NOISETAG_CZEROMQ_SHIM_H
#include <zmq.h>
#include <sys/eventfd.h>
#endif
