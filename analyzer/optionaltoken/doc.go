// Package optionaltoken defines an Analyzer that reports fencing tokens a
// caller can leave out: token parameters taken as pointers, variadics,
// nullable wrappers, any or functional options; lease and request fields
// that can be nil or vanish under omitempty; literal 0 or nil passed for a
// token; and writes that skip the fence when the token is zero.
package optionaltoken
