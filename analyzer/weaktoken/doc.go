// Package weaktoken defines an Analyzer that reports fencing tokens that are
// not strictly monotonic across lock grants (random values, wall-clock
// readings, etcd lease IDs, Redis INCR counters) at their source expression.
package weaktoken
