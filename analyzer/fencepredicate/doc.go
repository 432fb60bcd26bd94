// Package fencepredicate defines an Analyzer that reports fence conditions
// that are present but wrong: a reversed or inequality comparison, a
// transitional IS NULL branch, a token that is compared but never recorded,
// or compared against another column than the one that records it.
package fencepredicate
